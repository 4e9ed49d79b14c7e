#define PATCHED 1
#include "report.cpp"
