// Listed as skipped: its kernel is written in SFPI.
int main() { return 1; }
