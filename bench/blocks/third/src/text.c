/* Text processing and parsing loops: tokenising, number parsing, case
 * folding, line and word counting, escaping, matching. Written for an
 * evaluation corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

size_t count_lines(size_t n, const char *s) {
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

size_t count_words(size_t n, const char *s) {
	size_t w = 0;
	int in = 0;
	for (size_t i = 0; i < n; i++) {
		int sp = s[i] == ' ' || s[i] == '\t' || s[i] == '\n';
		w += !sp && !in;
		in = !sp;
	}
	return w;
}

void to_lower(size_t n, char *s) {
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			s[i] += 'a' - 'A';
}

void to_upper_branchless(size_t n, unsigned char *s) {
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		s[i] = c - ((unsigned)(c - 'a') < 26u) * 32;
	}
}

long parse_decimal(const char *s) {
	long v = 0;
	int neg = *s == '-';
	s += neg;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}

uint64_t parse_hex(const char *s) {
	uint64_t v = 0;
	for (;; s++) {
		unsigned c = (unsigned char)*s, d;
		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 32) - 'a' < 6)
			d = (c | 32) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	return v;
}

size_t parse_csv_ints(size_t n, const char *s, int *out) {
	size_t k = 0;
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ',') {
			out[k++] = v;
			v = 0;
		} else
			v = v * 10 + (s[i] - '0');
	}
	out[k++] = v;
	return k;
}

size_t skip_spaces(const char *s, size_t i) {
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

size_t ident_len(const unsigned char *s) {
	size_t i = 0;
	while ((s[i] | 32) - 'a' < 26u || s[i] - '0' < 10u || s[i] == '_')
		i++;
	return i;
}

size_t escape_json(size_t n, const char *s, char *out) {
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '"' || c == '\\') {
			out[k++] = '\\';
			out[k++] = c;
		} else if (c == '\n') {
			out[k++] = '\\';
			out[k++] = 'n';
		} else
			out[k++] = c;
	}
	return k;
}

size_t trim_right(size_t n, const char *s) {
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return n;
}

int str_compare(const unsigned char *a, const unsigned char *b) {
	while (*a && *a == *b)
		a++, b++;
	return *a - *b;
}

int case_equal(size_t n, const unsigned char *a, const unsigned char *b) {
	for (size_t i = 0; i < n; i++)
		if ((a[i] | 32) != (b[i] | 32))
			return 0;
	return 1;
}

long find_byte(size_t n, const char *s, char c) {
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return (long)i;
	return -1;
}

long find_substring(size_t n, const char *h, size_t m, const char *nd) {
	for (size_t i = 0; i + m <= n; i++) {
		size_t j = 0;
		while (j < m && h[i + j] == nd[j])
			j++;
		if (j == m)
			return (long)i;
	}
	return -1;
}

void char_classes(size_t n, const unsigned char *s, uint32_t cnt[4]) {
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];
		cnt[0] += c - '0' < 10u;
		cnt[1] += (c | 32) - 'a' < 26u;
		cnt[2] += c == ' ';
		cnt[3] += c >= 128;
	}
}

size_t utf8_count(size_t n, const unsigned char *s) {
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += (s[i] & 0xC0) != 0x80;
	return c;
}

size_t utf8_decode(size_t n, const unsigned char *s, uint32_t *out) {
	size_t i = 0, k = 0;
	while (i < n) {
		unsigned c = s[i];
		if (c < 0x80) {
			out[k++] = c;
			i++;
		} else if (c < 0xE0) {
			out[k++] = (c & 0x1F) << 6 | (s[i + 1] & 0x3F);
			i += 2;
		} else {
			out[k++] = (c & 0x0F) << 12 | (s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
			i += 3;
		}
	}
	return k;
}

size_t url_decode(size_t n, const char *s, char *out) {
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n) {
			unsigned hi = s[i + 1] <= '9' ? s[i + 1] - '0' : (s[i + 1] | 32) - 'a' + 10;
			unsigned lo = s[i + 2] <= '9' ? s[i + 2] - '0' : (s[i + 2] | 32) - 'a' + 10;
			out[k++] = (char)(hi << 4 | lo);
			i += 2;
		} else if (s[i] == '+')
			out[k++] = ' ';
		else
			out[k++] = s[i];
	}
	return k;
}

void reverse_string(size_t n, char *s) {
	for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
		char t = s[i];
		s[i] = s[j];
		s[j] = t;
	}
}

size_t replace_char(size_t n, char *s, char from, char to) {
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == from) {
			s[i] = to;
			c++;
		}
	return c;
}

int balanced_parens(size_t n, const char *s) {
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += (s[i] == '(') - (s[i] == ')');
		if (depth < 0)
			return 0;
	}
	return depth == 0;
}

size_t edit_distance_row(size_t n, const char *a, char b, const uint32_t *prev, uint32_t *cur) {
	cur[0] = prev[0] + 1;
	for (size_t j = 1; j <= n; j++) {
		uint32_t del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (a[j - 1] != b);
		uint32_t m = del < ins ? del : ins;
		cur[j] = m < sub ? m : sub;
	}
	return cur[n];
}

size_t itoa_rev(unsigned long v, char *out) {
	size_t k = 0;
	do {
		out[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return k;
}

int glob_star(const char *p, const char *s) {
	const char *star = 0, *ss = s;
	while (*s) {
		if (*p == '?' || *p == *s)
			p++, s++;
		else if (*p == '*')
			star = p++, ss = s;
		else if (star)
			p = star + 1, s = ++ss;
		else
			return 0;
	}
	while (*p == '*')
		p++;
	return !*p;
}
