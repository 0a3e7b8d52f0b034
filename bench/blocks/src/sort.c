/* Sorting, searching and list loops, written for the block corpus. */
#include <stddef.h>

void insertion_sort(size_t n, int *a) {
	for (size_t i = 1; i < n; i++) {
		int v = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

void bubble_sort(size_t n, double *a) {
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t j = 0; j + 1 < n - i; j++)
			if (a[j] > a[j + 1]) {
				double t = a[j];
				a[j] = a[j + 1];
				a[j + 1] = t;
			}
}

size_t partition(size_t n, long *a) {
	long p = a[n - 1];
	size_t i = 0;
	for (size_t j = 0; j + 1 < n; j++)
		if (a[j] < p) {
			long t = a[i];
			a[i] = a[j];
			a[j] = t;
			i++;
		}
	long t = a[i];
	a[i] = a[n - 1];
	a[n - 1] = t;
	return i;
}

size_t lower_bound(size_t n, const int *a, int v) {
	size_t lo = 0;
	while (n > 0) {
		size_t half = n / 2;
		if (a[lo + half] < v) {
			lo += half + 1;
			n -= half + 1;
		} else {
			n = half;
		}
	}
	return lo;
}

size_t branchless_search(size_t n, const int *a, int v) {
	const int *base = a;
	while (n > 1) {
		size_t half = n / 2;
		base = base[half] < v ? base + half : base;
		n -= half;
	}
	return (size_t)(base - a) + (*base < v);
}

void merge(size_t n, size_t m, const int *restrict a, const int *restrict b, int *restrict out) {
	size_t i = 0, j = 0, k = 0;
	while (i < n && j < m)
		out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
	while (i < n)
		out[k++] = a[i++];
	while (j < m)
		out[k++] = b[j++];
}

void counting_sort(size_t n, const unsigned char *restrict a, unsigned *restrict counts) {
	for (int i = 0; i < 256; i++)
		counts[i] = 0;
	for (size_t i = 0; i < n; i++)
		counts[a[i]]++;
	for (int i = 1; i < 256; i++)
		counts[i] += counts[i - 1];
}

struct node {
	struct node *next;
	long val;
};

long list_sum(const struct node *p) {
	long s = 0;
	for (; p; p = p->next)
		s += p->val;
	return s;
}

size_t list_len(const struct node *p) {
	size_t n = 0;
	for (; p; p = p->next)
		n++;
	return n;
}

void transpose(int n, const double *restrict a, double *restrict b) {
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			b[j * n + i] = a[i * n + j];
}

int is_sorted(size_t n, const long *a) {
	for (size_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}

void histogram(size_t n, const float *restrict x, int *restrict bins, float lo, float width, int nb) {
	for (size_t i = 0; i < n; i++) {
		int b = (int)((x[i] - lo) / width);
		b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
		bins[b]++;
	}
}

unsigned gcd(unsigned a, unsigned b) {
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

long collatz_steps(long x) {
	long n = 0;
	while (x != 1) {
		x = x & 1 ? 3 * x + 1 : x / 2;
		n++;
	}
	return n;
}
