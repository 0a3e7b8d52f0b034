/* Ring buffers and queues: single-producer byte and record rings with
 * power-of-two and arbitrary capacities, a double-ended queue, a
 * monotonic deque for sliding-window maxima, moving averages, a token
 * bucket, a timer wheel, an LRU cache on index links, a bounded event
 * log. Written for an evaluation corpus that no machine description was
 * tuned on. */
#include <stddef.h>
#include <stdint.h>

struct ring {
	uint8_t *buf;
	uint32_t mask; /* capacity - 1, capacity a power of two */
	uint32_t head, tail;
};

size_t ring_write(struct ring *r, size_t n, const uint8_t *src) {
	uint32_t space = r->mask + 1 - (r->tail - r->head);
	if (n > space)
		n = space;
	for (size_t i = 0; i < n; i++)
		r->buf[(r->tail + i) & r->mask] = src[i];
	r->tail += (uint32_t)n;
	return n;
}

size_t ring_read(struct ring *r, size_t n, uint8_t *dst) {
	uint32_t avail = r->tail - r->head;
	if (n > avail)
		n = avail;
	for (size_t i = 0; i < n; i++)
		dst[i] = r->buf[(r->head + i) & r->mask];
	r->head += (uint32_t)n;
	return n;
}

/* Scans the readable part for a delimiter without consuming. */
long ring_find(const struct ring *r, uint8_t delim) {
	for (uint32_t i = r->head; i != r->tail; i++)
		if (r->buf[i & r->mask] == delim)
			return (long)(i - r->head);
	return -1;
}

struct msg {
	uint64_t stamp;
	uint32_t id;
	int32_t value;
};

struct msg_queue {
	struct msg *slot;
	uint32_t cap, head, count;
};

int mq_push(struct msg_queue *q, const struct msg *m) {
	if (q->count == q->cap)
		return 0;
	uint32_t i = q->head + q->count;
	if (i >= q->cap)
		i -= q->cap;
	q->slot[i] = *m;
	q->count++;
	return 1;
}

int mq_pop(struct msg_queue *q, struct msg *m) {
	if (q->count == 0)
		return 0;
	*m = q->slot[q->head];
	if (++q->head == q->cap)
		q->head = 0;
	q->count--;
	return 1;
}

int64_t mq_drain_sum(struct msg_queue *q, uint64_t before) {
	int64_t s = 0;
	while (q->count && q->slot[q->head].stamp < before) {
		s += q->slot[q->head].value;
		q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
		q->count--;
	}
	return s;
}

struct deque {
	int64_t *a;
	size_t cap, front, len;
};

void dq_push_front(struct deque *d, int64_t v) {
	d->front = d->front ? d->front - 1 : d->cap - 1;
	d->a[d->front] = v;
	d->len++;
}

void dq_push_back(struct deque *d, int64_t v) {
	size_t i = d->front + d->len;
	d->a[i % d->cap] = v;
	d->len++;
}

int64_t dq_pop_back(struct deque *d) {
	d->len--;
	return d->a[(d->front + d->len) % d->cap];
}

int64_t dq_pop_front(struct deque *d) {
	int64_t v = d->a[d->front];
	d->front = d->front + 1 == d->cap ? 0 : d->front + 1;
	d->len--;
	return v;
}

/* Maximum of every window of k values with a monotonic deque of indices. */
void sliding_max(size_t n, const int32_t *x, size_t k, int32_t *out, uint32_t *dq) {
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < n; i++) {
		while (tail > head && x[dq[tail - 1]] <= x[i])
			tail--;
		dq[tail++] = (uint32_t)i;
		if (dq[head] + k <= i)
			head++;
		if (i + 1 >= k)
			out[i + 1 - k] = x[dq[head]];
	}
}

struct moving_avg {
	int32_t *win;
	uint32_t len, pos, filled;
	int64_t sum;
};

void moving_average(struct moving_avg *m, size_t n, const int32_t *x, int32_t *out) {
	for (size_t i = 0; i < n; i++) {
		if (m->filled == m->len)
			m->sum -= m->win[m->pos];
		else
			m->filled++;
		m->win[m->pos] = x[i];
		m->sum += x[i];
		if (++m->pos == m->len)
			m->pos = 0;
		out[i] = (int32_t)(m->sum / m->filled);
	}
}

void ema_f32(size_t n, const float *x, float *out, float alpha) {
	float s = x[0];
	for (size_t i = 0; i < n; i++) {
		s += alpha * (x[i] - s);
		out[i] = s;
	}
}

struct bucket {
	int64_t tokens, cap, rate_per_ms, last_ms;
};

size_t token_bucket(struct bucket *b, size_t n, const int64_t *when_ms, const int32_t *cost, uint8_t *allowed) {
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t t = b->tokens + (when_ms[i] - b->last_ms) * b->rate_per_ms;
		b->tokens = t > b->cap ? b->cap : t;
		b->last_ms = when_ms[i];
		if (b->tokens >= cost[i]) {
			b->tokens -= cost[i];
			allowed[i] = 1;
			ok++;
		} else {
			allowed[i] = 0;
		}
	}
	return ok;
}

struct timer {
	uint64_t expires;
	uint32_t next; /* index of the next timer in the slot, or UINT32_MAX */
	uint32_t id;
};

struct wheel {
	uint32_t slot[256];
	struct timer *t;
	uint64_t now;
};

void wheel_add(struct wheel *w, uint32_t i) {
	uint32_t s = (uint32_t)(w->t[i].expires & 255);
	w->t[i].next = w->slot[s];
	w->slot[s] = i;
}

/* Advances one tick, writes the ids of expired timers, keeps the rest. */
size_t wheel_tick(struct wheel *w, uint32_t *fired) {
	w->now++;
	uint32_t s = (uint32_t)(w->now & 255);
	uint32_t i = w->slot[s], keep = UINT32_MAX;
	size_t n = 0;
	while (i != UINT32_MAX) {
		uint32_t next = w->t[i].next;
		if (w->t[i].expires <= w->now) {
			fired[n++] = w->t[i].id;
		} else {
			w->t[i].next = keep;
			keep = i;
		}
		i = next;
	}
	w->slot[s] = keep;
	return n;
}

struct lru {
	uint32_t *key;
	int64_t *val;
	uint32_t *prev, *next;
	uint32_t head, tail, used, cap;
};

static void lru_unlink(struct lru *c, uint32_t i) {
	if (c->prev[i] != UINT32_MAX)
		c->next[c->prev[i]] = c->next[i];
	else
		c->head = c->next[i];
	if (c->next[i] != UINT32_MAX)
		c->prev[c->next[i]] = c->prev[i];
	else
		c->tail = c->prev[i];
}

static void lru_push_front(struct lru *c, uint32_t i) {
	c->prev[i] = UINT32_MAX;
	c->next[i] = c->head;
	if (c->head != UINT32_MAX)
		c->prev[c->head] = i;
	c->head = i;
	if (c->tail == UINT32_MAX)
		c->tail = i;
}

/* Linear lookup (small caches); returns 1 on a hit. */
int lru_get(struct lru *c, uint32_t key, int64_t *val) {
	for (uint32_t i = c->head; i != UINT32_MAX; i = c->next[i])
		if (c->key[i] == key) {
			*val = c->val[i];
			if (i != c->head) {
				lru_unlink(c, i);
				lru_push_front(c, i);
			}
			return 1;
		}
	return 0;
}

void lru_put(struct lru *c, uint32_t key, int64_t val) {
	uint32_t i;
	if (c->used < c->cap) {
		i = c->used++;
	} else {
		i = c->tail;
		lru_unlink(c, i);
	}
	c->key[i] = key;
	c->val[i] = val;
	lru_push_front(c, i);
}

struct log_entry {
	uint32_t seq;
	uint16_t level, len;
	char text[56];
};

void log_append(struct log_entry *ring, uint32_t cap, uint32_t *seq, uint16_t level, const char *s) {
	struct log_entry *e = &ring[*seq % cap];
	e->seq = (*seq)++;
	e->level = level;
	uint16_t n = 0;
	while (s[n] && n < sizeof e->text - 1) {
		e->text[n] = s[n];
		n++;
	}
	e->text[n] = 0;
	e->len = n;
}

size_t log_count_level(const struct log_entry *ring, uint32_t cap, uint32_t seq, uint16_t min_level) {
	size_t c = 0;
	uint32_t first = seq > cap ? seq - cap : 0;
	for (uint32_t s = first; s < seq; s++)
		c += ring[s % cap].level >= min_level;
	return c;
}

/* Round-robin scheduling of tasks with remaining work over a fixed quantum. */
uint64_t round_robin(size_t n, uint32_t *remaining, uint32_t quantum, uint32_t *queue, uint64_t *finish) {
	size_t head = 0, tail = 0, live = 0;
	uint64_t clock = 0;
	for (size_t i = 0; i < n; i++)
		if (remaining[i]) {
			queue[tail++] = (uint32_t)i;
			live++;
		}
	while (live) {
		uint32_t t = queue[head];
		head = head + 1 == n ? 0 : head + 1;
		uint32_t run = remaining[t] < quantum ? remaining[t] : quantum;
		clock += run;
		remaining[t] -= run;
		if (remaining[t]) {
			queue[tail] = t;
			tail = tail + 1 == n ? 0 : tail + 1;
		} else {
			finish[t] = clock;
			live--;
		}
	}
	return clock;
}

/* Copies a ring's readable part into two spans (as for writev). */
void ring_spans(const struct ring *r, const uint8_t **p1, size_t *n1, const uint8_t **p2, size_t *n2) {
	uint32_t h = r->head & r->mask, avail = r->tail - r->head;
	uint32_t first = r->mask + 1 - h;
	if (first > avail)
		first = avail;
	*p1 = r->buf + h;
	*n1 = first;
	*p2 = r->buf;
	*n2 = avail - first;
}
