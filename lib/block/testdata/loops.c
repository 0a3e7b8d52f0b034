/* Small C functions whose inner loops form the test corpus of package block.
   Compiled with: gcc -O2 -S -masm=intel loops.c (and -O3 -mavx2 for dot_avx2). */
#include <stddef.h>
#include <stdint.h>

double dot(const double *a, const double *b, size_t n) {
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

size_t my_strlen(const char *s) {
	const char *p = s;
	while (*p)
		p++;
	return p - s;
}

uint32_t fnv1a(const unsigned char *p, size_t n) {
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

int64_t count_below(const int32_t *a, size_t n, int32_t limit) {
	int64_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += a[i] < limit;
	return c;
}

void saxpy(float *restrict y, const float *restrict x, float a, size_t n) {
	for (size_t i = 0; i < n; i++)
		y[i] += a * x[i];
}
