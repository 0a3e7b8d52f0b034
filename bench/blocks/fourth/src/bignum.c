/* Arbitrary-precision integers on 32-bit limbs (least significant
 * first): addition, subtraction, comparison, schoolbook and Karatsuba
 * multiplication, squaring, shifts, division by a small number, decimal
 * conversion, modular exponentiation by Montgomery reduction. Written
 * for an evaluation corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

uint32_t big_add(size_t n, uint32_t *r, const uint32_t *a, const uint32_t *b) {
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		c += (uint64_t)a[i] + b[i];
		r[i] = (uint32_t)c;
		c >>= 32;
	}
	return (uint32_t)c;
}

uint32_t big_sub(size_t n, uint32_t *r, const uint32_t *a, const uint32_t *b) {
	uint32_t borrow = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)a[i] - b[i] - borrow;
		r[i] = (uint32_t)d;
		borrow = (uint32_t)(d >> 63);
	}
	return borrow;
}

uint32_t big_add_small(size_t n, uint32_t *a, uint32_t v) {
	for (size_t i = 0; i < n && v; i++) {
		uint64_t s = (uint64_t)a[i] + v;
		a[i] = (uint32_t)s;
		v = (uint32_t)(s >> 32);
	}
	return v;
}

int big_cmp(size_t n, const uint32_t *a, const uint32_t *b) {
	for (size_t i = n; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

size_t big_normalize(size_t n, const uint32_t *a) {
	while (n && a[n - 1] == 0)
		n--;
	return n;
}

uint32_t big_mul_small(size_t n, uint32_t *r, const uint32_t *a, uint32_t m) {
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		c += (uint64_t)a[i] * m;
		r[i] = (uint32_t)c;
		c >>= 32;
	}
	return (uint32_t)c;
}

/* r[0..n) += a[0..n) * m; returns the carry out. */
uint32_t big_muladd_small(size_t n, uint32_t *r, const uint32_t *a, uint32_t m) {
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		c += (uint64_t)a[i] * m + r[i];
		r[i] = (uint32_t)c;
		c >>= 32;
	}
	return (uint32_t)c;
}

void big_mul(size_t na, const uint32_t *a, size_t nb, const uint32_t *b, uint32_t *r) {
	for (size_t i = 0; i < na + nb; i++)
		r[i] = 0;
	for (size_t j = 0; j < nb; j++)
		r[j + na] = big_muladd_small(na, r + j, a, b[j]);
}

void big_sqr(size_t n, const uint32_t *a, uint32_t *r) {
	for (size_t i = 0; i < 2 * n; i++)
		r[i] = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t c = 0;
		for (size_t j = i + 1; j < n; j++) {
			c += (uint64_t)a[i] * a[j] + r[i + j];
			r[i + j] = (uint32_t)c;
			c >>= 32;
		}
		r[i + n] = (uint32_t)c;
	}
	uint32_t top = 0;
	for (size_t i = 0; i < 2 * n; i++) {
		uint32_t x = r[i];
		r[i] = x << 1 | top;
		top = x >> 31;
	}
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t p = (uint64_t)a[i] * a[i];
		c += (uint64_t)r[2 * i] + (uint32_t)p;
		r[2 * i] = (uint32_t)c;
		c >>= 32;
		c += (uint64_t)r[2 * i + 1] + (p >> 32);
		r[2 * i + 1] = (uint32_t)c;
		c >>= 32;
	}
}

/* Karatsuba for equal even lengths; scratch holds 4n limbs. */
void big_karatsuba(size_t n, const uint32_t *a, const uint32_t *b, uint32_t *r, uint32_t *scratch) {
	if (n <= 16 || n & 1) {
		big_mul(n, a, n, b, r);
		return;
	}
	size_t h = n / 2;
	uint32_t *sa = scratch, *sb = scratch + h + 1, *mid = scratch + 2 * h + 2;
	sa[h] = big_add(h, sa, a, a + h);
	sb[h] = big_add(h, sb, b, b + h);
	big_karatsuba(h, a, b, r, mid);
	big_karatsuba(h, a + h, b + h, r + n, mid);
	uint32_t t[2 * h + 2 + 2];
	big_mul(h + 1, sa, h + 1, sb, t);
	big_sub(2 * h + 2, t, t, r);
	uint32_t bor = 0;
	for (size_t i = 0; i < 2 * h; i++) {
		uint64_t d = (uint64_t)t[i] - r[n + i] - bor;
		t[i] = (uint32_t)d;
		bor = (uint32_t)(d >> 63);
	}
	t[2 * h] -= bor;
	uint64_t c = 0;
	for (size_t i = 0; i < 2 * h + 2 && h + i < 2 * n; i++) {
		c += (uint64_t)r[h + i] + t[i];
		r[h + i] = (uint32_t)c;
		c >>= 32;
	}
	for (size_t i = 3 * h + 2; c && i < 2 * n; i++) {
		c += r[i];
		r[i] = (uint32_t)c;
		c >>= 32;
	}
}

uint32_t big_shl(size_t n, uint32_t *r, const uint32_t *a, unsigned s) {
	if (s == 0) {
		for (size_t i = 0; i < n; i++)
			r[i] = a[i];
		return 0;
	}
	uint32_t carry = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t x = a[i];
		r[i] = x << s | carry;
		carry = x >> (32 - s);
	}
	return carry;
}

void big_shr(size_t n, uint32_t *r, const uint32_t *a, unsigned s) {
	if (s == 0) {
		for (size_t i = 0; i < n; i++)
			r[i] = a[i];
		return;
	}
	for (size_t i = 0; i + 1 < n; i++)
		r[i] = a[i] >> s | a[i + 1] << (32 - s);
	r[n - 1] = a[n - 1] >> s;
}

uint32_t big_divmod_small(size_t n, uint32_t *q, const uint32_t *a, uint32_t d) {
	uint64_t rem = 0;
	for (size_t i = n; i-- > 0;) {
		uint64_t cur = rem << 32 | a[i];
		q[i] = (uint32_t)(cur / d);
		rem = cur % d;
	}
	return (uint32_t)rem;
}

/* Decimal digits, most significant first; destroys a. */
size_t big_to_decimal(size_t n, uint32_t *a, char *out) {
	char tmp[16 * 1024];
	size_t k = 0;
	n = big_normalize(n, a);
	while (n) {
		uint32_t r = big_divmod_small(n, a, a, 1000000000u);
		n = big_normalize(n, a);
		for (int j = 0; j < 9 && (n || r); j++) {
			tmp[k++] = (char)('0' + r % 10);
			r /= 10;
		}
	}
	if (k == 0)
		tmp[k++] = '0';
	for (size_t i = 0; i < k; i++)
		out[i] = tmp[k - 1 - i];
	out[k] = 0;
	return k;
}

size_t big_from_decimal(const char *s, uint32_t *a, size_t cap) {
	size_t n = 0;
	for (; *s; s++) {
		uint32_t d = (uint32_t)(*s - '0');
		if (d > 9)
			break;
		uint64_t c = d;
		for (size_t i = 0; i < n; i++) {
			c += (uint64_t)a[i] * 10;
			a[i] = (uint32_t)c;
			c >>= 32;
		}
		if (c && n < cap)
			a[n++] = (uint32_t)c;
	}
	return n;
}

unsigned big_bitlen(size_t n, const uint32_t *a) {
	n = big_normalize(n, a);
	if (!n)
		return 0;
	return (unsigned)(n * 32 - (size_t)__builtin_clz(a[n - 1]));
}

/* -m^-1 mod 2^32 by Newton iteration; m odd. */
uint32_t mont_inverse(uint32_t m) {
	uint32_t x = m;
	for (int i = 0; i < 5; i++)
		x *= 2 - m * x;
	return -x;
}

/* Montgomery multiplication (CIOS): r = a*b*R^-1 mod m, R = 2^(32n). */
void mont_mul(size_t n, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m, uint32_t minv) {
	uint32_t t[66] = {0};
	for (size_t i = 0; i < n; i++) {
		uint64_t c = 0;
		for (size_t j = 0; j < n; j++) {
			c += (uint64_t)a[j] * b[i] + t[j];
			t[j] = (uint32_t)c;
			c >>= 32;
		}
		c += t[n];
		t[n] = (uint32_t)c;
		t[n + 1] = (uint32_t)(c >> 32);
		uint32_t u = t[0] * minv;
		c = ((uint64_t)u * m[0] + t[0]) >> 32;
		for (size_t j = 1; j < n; j++) {
			c += (uint64_t)u * m[j] + t[j];
			t[j - 1] = (uint32_t)c;
			c >>= 32;
		}
		c += t[n];
		t[n - 1] = (uint32_t)c;
		t[n] = t[n + 1] + (uint32_t)(c >> 32);
	}
	if (t[n] || big_cmp(n, t, m) >= 0)
		big_sub(n, r, t, m);
	else
		for (size_t i = 0; i < n; i++)
			r[i] = t[i];
}

void mont_pow(size_t n, uint32_t *r, const uint32_t *base, const uint32_t *e, size_t ne,
              const uint32_t *m, const uint32_t *one, uint32_t minv) {
	uint32_t x[64], b[64];
	for (size_t i = 0; i < n; i++) {
		x[i] = one[i];
		b[i] = base[i];
	}
	for (size_t i = 0; i < ne; i++) {
		uint32_t w = e[i];
		for (int k = 0; k < 32; k++) {
			if (w & 1)
				mont_mul(n, x, x, b, m, minv);
			mont_mul(n, b, b, b, m, minv);
			w >>= 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		r[i] = x[i];
}

/* Factorial into limbs, returns the length. */
size_t big_factorial(uint32_t k, uint32_t *a, size_t cap) {
	size_t n = 1;
	a[0] = 1;
	for (uint32_t i = 2; i <= k; i++) {
		uint32_t c = big_mul_small(n, a, a, i);
		if (c && n < cap)
			a[n++] = c;
	}
	return n;
}

/* Fibonacci numbers into two limb arrays, returns the length. */
size_t big_fibonacci(uint32_t k, uint32_t *a, uint32_t *b, size_t cap) {
	size_t n = 1;
	a[0] = 0;
	b[0] = 1;
	for (uint32_t i = 0; i < k; i++) {
		uint32_t c = big_add(n, a, a, b);
		if (c && n < cap) {
			a[n] = c;
			b[n] = 0;
			n++;
		}
		uint32_t *t = a;
		a = b;
		b = t;
	}
	return n;
}

/* 64-bit limbs with the compiler's carry intrinsics. */
unsigned char big_add64(size_t n, uint64_t *r, const uint64_t *a, const uint64_t *b) {
	unsigned char c = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned long long s;
		c = __builtin_ia32_addcarryx_u64(c, a[i], b[i], &s);
		r[i] = s;
	}
	return c;
}

void big_mul64_row(size_t n, uint64_t *r, const uint64_t *a, uint64_t m) {
	unsigned __int128 c = 0;
	for (size_t i = 0; i < n; i++) {
		c += (unsigned __int128)a[i] * m + r[i];
		r[i] = (uint64_t)c;
		c >>= 64;
	}
	r[n] = (uint64_t)c;
}
