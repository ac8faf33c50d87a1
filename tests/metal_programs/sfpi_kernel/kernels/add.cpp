#include "sfpi.h"

void kernel_main() {}
