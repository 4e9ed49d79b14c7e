#define PATCHED 1
#include "mini.cpp"
