/* Date, time and calendar arithmetic: civil dates to day numbers and
 * back, weekdays, ISO weeks, leap years, timestamp parsing and
 * formatting, durations and business days. Written for an evaluation
 * corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

struct date {
	int32_t year;
	uint8_t month, day;
};

struct tm_fields {
	int32_t year;
	int32_t month, day, hour, min, sec, wday, yday;
};

int is_leap(int32_t y) {
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int32_t y, int m) {
	static const uint8_t len[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && is_leap(y))
		return 29;
	return len[m - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
 * days_from_civil). */
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
	y -= m <= 2;
	const int64_t era = (y >= 0 ? y : y - 399) / 400;
	const unsigned yoe = (unsigned)(y - era * 400);
	const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

struct date civil_from_days(int64_t z) {
	z += 719468;
	const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	const unsigned doe = (unsigned)(z - era * 146097);
	const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	const int64_t y = (int64_t)yoe + era * 400;
	const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	const unsigned mp = (5 * doy + 2) / 153;
	const unsigned d = doy - (153 * mp + 2) / 5 + 1;
	const unsigned m = mp < 10 ? mp + 3 : mp - 9;
	struct date r = {(int32_t)(y + (m <= 2)), (uint8_t)m, (uint8_t)d};
	return r;
}

void days_to_dates(size_t n, const int64_t *days, struct date *out) {
	for (size_t i = 0; i < n; i++)
		out[i] = civil_from_days(days[i]);
}

void dates_to_days(size_t n, const struct date *in, int64_t *out) {
	for (size_t i = 0; i < n; i++)
		out[i] = days_from_civil(in[i].year, in[i].month, in[i].day);
}

/* 0 = Sunday. */
int weekday_from_days(int64_t z) {
	return (int)(z >= -4 ? (z + 4) % 7 : (z + 5) % 7 + 6);
}

int zeller_weekday(int y, int m, int d) {
	if (m < 3) {
		m += 12;
		y--;
	}
	int k = y % 100, j = y / 100;
	int h = (d + 13 * (m + 1) / 5 + k + k / 4 + j / 4 + 5 * j) % 7;
	return (h + 6) % 7;
}

int day_of_year(int32_t y, int m, int d) {
	int n = d;
	for (int i = 1; i < m; i++)
		n += days_in_month(y, i);
	return n;
}

int iso_week(int32_t y, int m, int d) {
	int64_t z = days_from_civil(y, (unsigned)m, (unsigned)d);
	int wd = weekday_from_days(z);
	int iso_wd = wd == 0 ? 7 : wd;
	int yday = day_of_year(y, m, d);
	int w = (yday - iso_wd + 10) / 7;
	if (w < 1) {
		int32_t py = y - 1;
		int pdec31 = weekday_from_days(days_from_civil(py, 12, 31));
		int p = pdec31 == 0 ? 7 : pdec31;
		return (p == 4 || (p == 5 && is_leap(py))) ? 53 : 52;
	}
	if (w == 53) {
		int dec31 = weekday_from_days(days_from_civil(y, 12, 31));
		if (dec31 >= 1 && dec31 < 4)
			return 1;
	}
	return w;
}

void unix_to_fields(int64_t t, struct tm_fields *f) {
	int64_t days = t / 86400;
	int64_t rem = t % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	f->hour = (int32_t)(rem / 3600);
	f->min = (int32_t)(rem / 60 % 60);
	f->sec = (int32_t)(rem % 60);
	f->wday = weekday_from_days(days);
	struct date d = civil_from_days(days);
	f->year = d.year;
	f->month = d.month;
	f->day = d.day;
	f->yday = day_of_year(d.year, d.month, d.day) - 1;
}

int64_t fields_to_unix(const struct tm_fields *f) {
	return days_from_civil(f->year, (unsigned)f->month, (unsigned)f->day) * 86400 +
	       f->hour * 3600 + f->min * 60 + f->sec;
}

static int digits(const char *s, int n) {
	int v = 0;
	for (int i = 0; i < n; i++) {
		unsigned c = (unsigned)(s[i] - '0');
		if (c > 9)
			return -1;
		v = v * 10 + (int)c;
	}
	return v;
}

/* Parses "YYYY-MM-DDTHH:MM:SS" with an optional "Z" or "+HH:MM". */
int parse_iso8601(const char *s, int64_t *out) {
	int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
	int h = digits(s + 11, 2), mi = digits(s + 14, 2), se = digits(s + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || mi < 0 || se < 0)
		return -1;
	if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
		return -1;
	if (d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 60)
		return -1;
	int64_t t = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se;
	const char *z = s + 19;
	if (*z == '+' || *z == '-') {
		int oh = digits(z + 1, 2), om = digits(z + 4, 2);
		if (oh < 0 || om < 0 || z[3] != ':')
			return -1;
		int off = oh * 3600 + om * 60;
		t -= *z == '+' ? off : -off;
	} else if (*z != 'Z' && *z != 0) {
		return -1;
	}
	*out = t;
	return 0;
}

static void put2(char *p, int v) {
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
}

void format_iso8601(int64_t t, char *out) {
	struct tm_fields f;
	unix_to_fields(t, &f);
	int y = f.year;
	out[0] = (char)('0' + y / 1000 % 10);
	out[1] = (char)('0' + y / 100 % 10);
	out[2] = (char)('0' + y / 10 % 10);
	out[3] = (char)('0' + y % 10);
	out[4] = '-';
	put2(out + 5, f.month);
	out[7] = '-';
	put2(out + 8, f.day);
	out[10] = 'T';
	put2(out + 11, f.hour);
	out[13] = ':';
	put2(out + 14, f.min);
	out[16] = ':';
	put2(out + 17, f.sec);
	out[19] = 'Z';
	out[20] = 0;
}

int business_days(int64_t from, int64_t to, size_t nholidays, const int64_t *holidays) {
	int n = 0;
	size_t h = 0;
	for (int64_t z = from; z < to; z++) {
		while (h < nholidays && holidays[h] < z)
			h++;
		int wd = weekday_from_days(z);
		if (wd == 0 || wd == 6)
			continue;
		if (h < nholidays && holidays[h] == z)
			continue;
		n++;
	}
	return n;
}

int64_t add_months(int64_t z, int months) {
	struct date d = civil_from_days(z);
	int m0 = d.month - 1 + months;
	int32_t y = d.year + (m0 >= 0 ? m0 / 12 : (m0 - 11) / 12);
	int m = ((m0 % 12) + 12) % 12 + 1;
	int dim = days_in_month(y, m);
	int day = d.day > dim ? dim : d.day;
	return days_from_civil(y, (unsigned)m, (unsigned)day);
}

/* Easter Sunday (Anonymous Gregorian algorithm) as day of the year. */
int easter_yday(int y) {
	int a = y % 19, b = y / 100, c = y % 100;
	int d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3;
	int h = (19 * a + b - d - g + 15) % 30;
	int i = c / 4, k = c % 4;
	int l = (32 + 2 * e + 2 * i - h - k) % 7;
	int m = (a + 11 * h + 22 * l) / 451;
	int month = (h + l - 7 * m + 114) / 31;
	int day = (h + l - 7 * m + 114) % 31 + 1;
	return day_of_year(y, month, day);
}

void format_duration(int64_t secs, char *out) {
	int64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, s = secs % 60;
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + d % 10);
		d /= 10;
	} while (d);
	int k = 0;
	while (n)
		out[k++] = tmp[--n];
	out[k++] = 'd';
	put2(out + k, (int)h);
	out[k + 2] = 'h';
	put2(out + k + 3, (int)m);
	out[k + 5] = 'm';
	put2(out + k + 6, (int)s);
	out[k + 8] = 's';
	out[k + 9] = 0;
}

void bucket_by_hour(size_t n, const int64_t *ts, uint32_t counts[24]) {
	for (size_t i = 0; i < n; i++) {
		int64_t r = ts[i] % 86400;
		if (r < 0)
			r += 86400;
		counts[r / 3600]++;
	}
}

int64_t julian_day_number(int y, int m, int d) {
	int a = (14 - m) / 12;
	int64_t yy = (int64_t)y + 4800 - a;
	int mm = m + 12 * a - 3;
	return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045;
}

double moon_phase(int64_t unix_secs) {
	const double synodic = 29.530588853;
	double days = (double)(unix_secs - 947182440) / 86400.0;
	double p = days / synodic;
	p -= (double)(int64_t)p;
	if (p < 0)
		p += 1.0;
	return p;
}

int count_leap_years(int32_t from, int32_t to) {
	int n = 0;
	for (int32_t y = from; y < to; y++)
		n += is_leap(y);
	return n;
}

int32_t seconds_of_day_max_gap(size_t n, const int32_t *sorted) {
	int32_t best = 0;
	for (size_t i = 1; i < n; i++) {
		int32_t g = sorted[i] - sorted[i - 1];
		if (g > best)
			best = g;
	}
	int32_t wrap = 86400 - sorted[n - 1] + sorted[0];
	return wrap > best ? wrap : best;
}
