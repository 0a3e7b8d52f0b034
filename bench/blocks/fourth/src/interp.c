/* Small interpreters and state machines: a bytecode stack machine, a
 * register machine, an expression evaluator, a Brainfuck interpreter,
 * a DFA matcher, a tokenizer, protocol and vending-machine state
 * machines, a cellular automaton rule table. Written for an evaluation
 * corpus that no machine description was tuned on. */
#include <stddef.h>
#include <stdint.h>

enum op {
	OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_DROP,
	OP_JZ, OP_JMP, OP_LOAD, OP_STORE, OP_LT, OP_HALT
};

int64_t run_stack_vm(const int32_t *code, int64_t *vars, size_t steps) {
	int64_t stack[64];
	int sp = 0;
	size_t pc = 0;
	while (steps--) {
		int32_t ins = code[pc++];
		switch (ins & 0xff) {
		case OP_PUSH:
			stack[sp++] = ins >> 8;
			break;
		case OP_ADD:
			sp--;
			stack[sp - 1] += stack[sp];
			break;
		case OP_SUB:
			sp--;
			stack[sp - 1] -= stack[sp];
			break;
		case OP_MUL:
			sp--;
			stack[sp - 1] *= stack[sp];
			break;
		case OP_DUP:
			stack[sp] = stack[sp - 1];
			sp++;
			break;
		case OP_SWAP: {
			int64_t t = stack[sp - 1];
			stack[sp - 1] = stack[sp - 2];
			stack[sp - 2] = t;
			break;
		}
		case OP_DROP:
			sp--;
			break;
		case OP_JZ:
			if (stack[--sp] == 0)
				pc = (size_t)(ins >> 8);
			break;
		case OP_JMP:
			pc = (size_t)(ins >> 8);
			break;
		case OP_LOAD:
			stack[sp++] = vars[ins >> 8];
			break;
		case OP_STORE:
			vars[ins >> 8] = stack[--sp];
			break;
		case OP_LT:
			sp--;
			stack[sp - 1] = stack[sp - 1] < stack[sp];
			break;
		case OP_HALT:
		default:
			return sp ? stack[sp - 1] : 0;
		}
	}
	return sp ? stack[sp - 1] : 0;
}

/* A three-address register machine: op:8 dst:8 a:8 b:8. */
void run_reg_vm(size_t n, const uint32_t *code, uint64_t regs[256]) {
	for (size_t pc = 0; pc < n; pc++) {
		uint32_t w = code[pc];
		unsigned op = w >> 24, d = (w >> 16) & 255, a = (w >> 8) & 255, b = w & 255;
		uint64_t x = regs[a], y = regs[b];
		switch (op) {
		case 0: regs[d] = x + y; break;
		case 1: regs[d] = x - y; break;
		case 2: regs[d] = x * y; break;
		case 3: regs[d] = x & y; break;
		case 4: regs[d] = x | y; break;
		case 5: regs[d] = x ^ y; break;
		case 6: regs[d] = x << (y & 63); break;
		case 7: regs[d] = x >> (y & 63); break;
		case 8: regs[d] = x < y; break;
		case 9: regs[d] = b; break;
		case 10: regs[d] = y ? x / y : 0; break;
		default: regs[d] = x; break;
		}
	}
}

/* Direct-threaded dispatch with a table of labels (GNU C). */
int64_t run_threaded(const uint8_t *code, int64_t acc, int64_t arg) {
	static void *const table[] = {&&inc, &&dbl, &&addarg, &&neg, &&halt, &&shr};
	const uint8_t *pc = code;
	goto *table[*pc++];
inc:
	acc++;
	goto *table[*pc++];
dbl:
	acc += acc;
	goto *table[*pc++];
addarg:
	acc += arg;
	goto *table[*pc++];
neg:
	acc = -acc;
	goto *table[*pc++];
shr:
	acc >>= 1;
	goto *table[*pc++];
halt:
	return acc;
}

size_t bf_run(const char *prog, uint8_t *tape, size_t tape_len, const uint8_t *in, uint8_t *out) {
	size_t pc = 0, p = 0, o = 0;
	while (prog[pc]) {
		switch (prog[pc]) {
		case '>': p = p + 1 < tape_len ? p + 1 : 0; break;
		case '<': p = p ? p - 1 : tape_len - 1; break;
		case '+': tape[p]++; break;
		case '-': tape[p]--; break;
		case '.': out[o++] = tape[p]; break;
		case ',': tape[p] = *in ? *in++ : 0; break;
		case '[':
			if (!tape[p]) {
				int depth = 1;
				while (depth) {
					pc++;
					depth += (prog[pc] == '[') - (prog[pc] == ']');
				}
			}
			break;
		case ']':
			if (tape[p]) {
				int depth = 1;
				while (depth) {
					pc--;
					depth += (prog[pc] == ']') - (prog[pc] == '[');
				}
			}
			break;
		}
		pc++;
	}
	return o;
}

/* Table-driven DFA over bytes; returns 1 when it ends in an accepting state. */
int dfa_match(const uint8_t (*delta)[256], const uint8_t *accept, size_t n, const uint8_t *s) {
	unsigned q = 0;
	for (size_t i = 0; i < n; i++)
		q = delta[q][s[i]];
	return accept[q];
}

size_t dfa_count_matches(const uint8_t (*delta)[256], const uint8_t *accept, size_t n, const uint8_t *s) {
	unsigned q = 0;
	size_t c = 0;
	for (size_t i = 0; i < n; i++) {
		q = delta[q][s[i]];
		c += accept[q];
	}
	return c;
}

enum tok { T_NUM, T_IDENT, T_OP, T_LPAREN, T_RPAREN, T_END, T_ERR };

struct token {
	uint8_t kind;
	uint32_t start, len;
	int64_t value;
};

size_t tokenize(const char *s, struct token *out, size_t max) {
	size_t n = 0;
	uint32_t i = 0;
	while (n < max) {
		while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')
			i++;
		char c = s[i];
		struct token *t = &out[n++];
		t->start = i;
		t->value = 0;
		if (c == 0) {
			t->kind = T_END;
			t->len = 0;
			return n;
		}
		if (c >= '0' && c <= '9') {
			int64_t v = 0;
			while (s[i] >= '0' && s[i] <= '9')
				v = v * 10 + (s[i++] - '0');
			t->kind = T_NUM;
			t->value = v;
		} else if ((c | 32) >= 'a' && (c | 32) <= 'z') {
			while (((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')
				i++;
			t->kind = T_IDENT;
		} else if (c == '(' || c == ')') {
			t->kind = c == '(' ? T_LPAREN : T_RPAREN;
			i++;
		} else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%') {
			t->kind = T_OP;
			t->value = c;
			i++;
		} else {
			t->kind = T_ERR;
			i++;
		}
		t->len = i - t->start;
	}
	return n;
}

static int prec(int64_t op) {
	return op == '+' || op == '-' ? 1 : 2;
}

static int64_t apply(int64_t op, int64_t a, int64_t b) {
	switch (op) {
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/': return b ? a / b : 0;
	default: return b ? a % b : 0;
	}
}

/* Shunting-yard evaluation of the tokens above. */
int64_t eval_tokens(const struct token *t, size_t n) {
	int64_t vals[64], ops[64];
	int nv = 0, no = 0;
	for (size_t i = 0; i < n && t[i].kind != T_END; i++) {
		switch (t[i].kind) {
		case T_NUM:
			vals[nv++] = t[i].value;
			break;
		case T_LPAREN:
			ops[no++] = '(';
			break;
		case T_RPAREN:
			while (no && ops[no - 1] != '(') {
				nv--;
				vals[nv - 1] = apply(ops[--no], vals[nv - 1], vals[nv]);
			}
			no--;
			break;
		case T_OP:
			while (no && ops[no - 1] != '(' && prec(ops[no - 1]) >= prec(t[i].value)) {
				nv--;
				vals[nv - 1] = apply(ops[--no], vals[nv - 1], vals[nv]);
			}
			ops[no++] = t[i].value;
			break;
		default:
			return 0;
		}
	}
	while (no) {
		nv--;
		vals[nv - 1] = apply(ops[--no], vals[nv - 1], vals[nv]);
	}
	return nv ? vals[0] : 0;
}

enum http_state { H_METHOD, H_SP1, H_PATH, H_SP2, H_VERSION, H_CR, H_HEADER, H_DONE, H_BAD };

int http_request_line(size_t n, const char *s, size_t *path_start, size_t *path_len) {
	enum http_state st = H_METHOD;
	for (size_t i = 0; i < n && st != H_DONE && st != H_BAD; i++) {
		char c = s[i];
		switch (st) {
		case H_METHOD:
			if (c == ' ')
				st = H_SP1;
			else if (c < 'A' || c > 'Z')
				st = H_BAD;
			break;
		case H_SP1:
			*path_start = i;
			st = c == '/' ? H_PATH : H_BAD;
			break;
		case H_PATH:
			if (c == ' ') {
				*path_len = i - *path_start;
				st = H_SP2;
			} else if (c < 0x21) {
				st = H_BAD;
			}
			break;
		case H_SP2:
			st = c == 'H' ? H_VERSION : H_BAD;
			break;
		case H_VERSION:
			if (c == '\r')
				st = H_CR;
			break;
		case H_CR:
			st = c == '\n' ? H_DONE : H_BAD;
			break;
		default:
			break;
		}
	}
	return st == H_DONE;
}

struct vending {
	int32_t credit, dispensed, refunded;
	uint8_t state;
};

void vending_run(struct vending *v, size_t n, const int8_t *events, const int32_t *price) {
	for (size_t i = 0; i < n; i++) {
		int8_t e = events[i];
		switch (v->state) {
		case 0:
			if (e > 0) {
				v->credit += e;
				v->state = 1;
			}
			break;
		case 1:
			if (e > 0) {
				v->credit += e;
			} else if (e < 0 && v->credit >= price[-e]) {
				v->credit -= price[-e];
				v->dispensed++;
				v->state = v->credit ? 1 : 0;
			} else if (e == 0) {
				v->refunded += v->credit;
				v->credit = 0;
				v->state = 0;
			}
			break;
		}
	}
}

/* One step of an elementary cellular automaton (rule number 0-255). */
void eca_step(size_t n, const uint8_t *cur, uint8_t *next, uint8_t rule) {
	for (size_t i = 0; i < n; i++) {
		unsigned l = cur[i ? i - 1 : n - 1], c = cur[i], r = cur[i + 1 < n ? i + 1 : 0];
		next[i] = (rule >> (l << 2 | c << 1 | r)) & 1;
	}
}

int debounce(size_t n, const uint8_t *samples, uint8_t *out, int threshold) {
	int count = 0, state = 0, changes = 0;
	for (size_t i = 0; i < n; i++) {
		if (samples[i] != state) {
			if (++count >= threshold) {
				state = samples[i];
				count = 0;
				changes++;
			}
		} else {
			count = 0;
		}
		out[i] = (uint8_t)state;
	}
	return changes;
}

/* Counts the keys of a line-oriented config: key=value lines, # comments. */
size_t count_config_keys(const char *s) {
	enum { START, KEY, VALUE, COMMENT } st = START;
	size_t keys = 0;
	for (; *s; s++) {
		char c = *s;
		switch (st) {
		case START:
			if (c == '#')
				st = COMMENT;
			else if (c != '\n' && c != ' ')
				st = KEY;
			break;
		case KEY:
			if (c == '=') {
				keys++;
				st = VALUE;
			} else if (c == '\n') {
				st = START;
			}
			break;
		case VALUE:
		case COMMENT:
			if (c == '\n')
				st = START;
			break;
		}
	}
	return keys;
}
