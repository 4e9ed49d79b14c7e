#define WARN 1
#include "mini.cpp"
