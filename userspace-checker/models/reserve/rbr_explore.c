// SPDX-License-Identifier: GPL-2.0
/*
 * Depth-first exploration of every nesting interleaving of the reserve
 * path, and of every clock that moves or stands still at each read.
 *
 * An execution is a sequence of choices: whether a context ends its turn,
 * whether its next event is committed or discarded, before every access
 * to a shared word whether a higher context interrupts right there, and
 * at every clock read whether the clock moved.  Executions are re-run
 * from the start with a replayed prefix of choices (stateless search); at
 * each new choice point the whole state is hashed, and a state already
 * explored is not explored again.  A state is the buffer (every shared
 * word and the page), the clock, the oracle's record of each event, and
 * for each context on the stack where it is and what its accesses found
 * so far, with the buffer as it was when the context began and whenever
 * an interrupt returned to it (what its plain loads read since follows
 * from those and its own accesses), which fixes its C locals: the tree's
 * code is deterministic.  Which choices it made is not part of it: a
 * choice shows in the buffer, the clock or the events.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rbr_model.h"
#include "rbm_search.h"

struct rbr_model rbr;
unsigned long rbr_page_size = RBR_PAGE_DEFAULT;
bool rbr_clock_jumps;

u64 rbr_mix(u64 h, u64 x)
{
	return rbm_search_mix(h, x);
}

static bool visit(u64 h)	/* true if already there */
{
	if (rbm_search_visit(h))
		return true;
	rbr.states++;
	return false;
}

static u64 state_hash(void)
{
	u64 h = rbr.var->hash(0, rbr_mix);

	h = rbr_mix(h, rbr.clock);
	h = rbr_mix(h, (u64)rbr.nev << 32 | (u32)rbr.top);
	h = rbr_mix(h, rbr.overlapped);
	h = rbr_mix(h, rbr.loglen);
	for (int i = 0; i < rbr.nev; i++) {
		const struct rbr_event *e = &rbr.ev[i];

		h = rbr_mix(h, (u64)e->level << 8 | e->discard << 2 | e->reserved << 1 | e->done);
		h = rbr_mix(h, e->pre);
		h = rbr_mix(h, e->post);
		h = rbr_mix(h, e->api_ts);
		/* what the oracle's contract reads of it (rbr_oracle.c) */
		h = rbr_mix(h, (u64)e->came_after << 2 | e->have_before << 1 | e->have_write);
		h = rbr_mix(h, e->last_before);
		h = rbr_mix(h, e->last_write);
		for (int r = 0; r < e->nreads; r++)
			h = rbr_mix(h, e->reads[r]);
	}
	for (int l = 0; l < rbr.depth; l++) {
		const struct rbr_level *v = &rbr.lv[l];

		h = rbr_mix(h, (u64)v->ops_left << 8 | v->active << 1 | (v->inst_ops > 0));
		if (!v->active)
			continue;
		h = rbr_mix(h, (u64)(v->ev + 1) << 16 | v->phase << 4 | v->after_c);
		h = rbr_mix(h, v->seen);
		h = rbr_mix(h, (u64)(uintptr_t)v->load_word);
		h = rbr_mix(h, v->load_val);
	}
	return h;
}

void rbr_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rbr.why, sizeof(rbr.why), fmt, ap);
	va_end(ap);
	longjmp(rbr.out, RBR_END_VIOLATION);
}

void rbr_unmodelled(const char *what)
{
	snprintf(rbr.why, sizeof(rbr.why), "outside the model: %s", what);
	longjmp(rbr.out, RBR_END_UNMODELLED);
}

/*
 * A choice of @n ways at a point of kind @kind.  Two choice points can
 * come with no access between them (an interrupt point, then whether the
 * clock moved): the kind is part of the state, and so is every pick the
 * current context has made since, or the second would look like the
 * first, already explored.
 */
int rbr_choose(int n, enum rbr_choice kind)
{
	int pick;

	if (n <= 1)
		return 0;
	/* a choice of the context's own: an interrupt after it is not one before it */
	if (kind != RBR_CHOOSE_INTERRUPT && rbr.top >= 0)
		rbr.lv[rbr.top].load_word = NULL;
	if (rbr.pos < rbr.plen) {
		pick = rbr.path[rbr.pos++].pick;
	} else if (rbr.estimating) {
		rbr.rng ^= rbr.rng << 13;
		rbr.rng ^= rbr.rng >> 7;
		rbr.rng ^= rbr.rng << 17;
		pick = rbr.rng % n;
		rbr.weight *= n;
		if (rbr.pos >= RBR_MAX_PATH)
			rbr_fail("more than %d choices in one execution", RBR_MAX_PATH);
		rbr.path[rbr.pos].pick = pick;
		rbr.path[rbr.pos++].n = n;
	} else {
		/*
		 * With jobs, above the split every job walks the same
		 * prefixes: a state seen below another job's prefix (not
		 * this job's to explore) must not prune one above it.
		 */
		if (rbr.hashing && (!rbr.split_n || rbr.pos >= rbr.split_depth) &&
		    visit(rbr_mix(state_hash(), kind)))
			longjmp(rbr.out, RBR_END_PRUNED);
		if (rbr.pos >= RBR_MAX_PATH)
			rbr_fail("more than %d choices in one execution", RBR_MAX_PATH);
		pick = 0;
		rbr.path[rbr.pos].pick = pick;
		rbr.path[rbr.pos].n = n;
		rbr.plen = ++rbr.pos;
	}
	if (rbr.split_n && rbr.pos == rbr.split_depth && !rbr_split_mine())
		longjmp(rbr.out, RBR_END_ELSEWHERE);
	return pick;
}

/* Is the subtree below the current first split_depth picks this job's? */
bool rbr_split_mine(void)
{
	u64 h = 0;

	for (int i = 0; i < rbr.split_depth; i++)
		h = rbr_mix(h, rbr.path[i].pick);
	return h % rbr.split_n == (u64)rbr.split_i;
}

int rbr_level(void)
{
	return rbr.top;
}

void rbr_kernel_log(const char *line)
{
	size_t n = strlen(line);

	if (rbr.trace)
		rbr_trace_event(rbr.top, "kernel: %.*s", (int)(n && line[n - 1] == '\n' ? n - 1 : n),
				line);
	if (rbr.loglen + n + 1 < sizeof(rbr.log)) {
		memcpy(rbr.log + rbr.loglen, line, n + 1);
		rbr.loglen += n;
	}
}

void rbr_kernel_warning(const char *what)
{
	if (rbr.trace)
		rbr_trace_event(rbr.top, "kernel: %s", what);
	if (!rbr.warning)
		rbr.warning = what;
}

/* What the kernel said in a call is a finding: the tree's code is quiet when right. */
static void kernel_quiet(int i, const char *call)
{
	const char *nl;

	if (!rbr.warning && !rbr.loglen)
		return;
	nl = strchr(rbr.log, '\n');
	rbr_fail("the kernel complained in %s() of event %d: %s%s%.*s", call, i,
		 rbr.warning ? rbr.warning : "", rbr.warning && rbr.loglen ? ": " : "",
		 nl ? (int)(nl - rbr.log) : (int)rbr.loglen, rbr.log);
}

static void run_instance(int level);

/*
 * A context's locals are gone but @keep: what it does next follows from
 * the buffer as it is now.  Forgetting what its accesses found merges
 * the states that different interleavings of what it did lead to.
 */
static void forget(struct rbr_level *v, u64 keep)
{
	v->seen = rbr_mix(rbr.var->hash(rbr.clock, rbr_mix), keep);
	v->resumed = false;
	v->load_word = NULL;
}

/* One event: reserve, write the payload, commit or discard. */
static void exec_event(int level, bool discard)
{
	struct rbr_level *v = &rbr.lv[level];
	int i = rbr.nev++;
	struct rbr_event *e = &rbr.ev[i];
	void *event;

	*e = (struct rbr_event){ .level = level, .discard = discard, .pre = rbr.clock };
	for (int l = 0; l < rbr.depth; l++)
		if (l != level && rbr.lv[l].active &&
		    (rbr.lv[l].phase == RBR_RESERVING || rbr.lv[l].phase == RBR_DISCARDING))
			rbr.overlapped = true;
	v->load_word = NULL;
	v->ev = i;
	v->phase = RBR_RESERVING;
	v->after_c = false;
	if (rbr.trace)
		rbr_trace_event(level, "event %d: ring_buffer_lock_reserve() (clock %llu)", i, e->pre);
	event = rbr.var->reserve(RBR_PAYLOAD);
	kernel_quiet(i, "ring_buffer_lock_reserve");
	if (!event)
		rbr_fail("ring_buffer_lock_reserve() of event %d returned NULL", i);
	e->post = rbr.clock;
	e->reserved = true;
	/*
	 * The reservation's locals are gone too: from here the context
	 * holds the event (its place on the page) and nothing else.  (And
	 * e->post is taken: an interrupt before it is another case.)
	 */
	forget(v, (u64)(uintptr_t)event);
	*(u32 *)rbr.var->event_data(event) = i + 1;
	/* what histogram triggers and filters take for its time */
	e->api_ts = rbr.var->event_time_stamp(event);
	kernel_quiet(i, "ring_buffer_event_time_stamp");
	v->phase = discard ? RBR_DISCARDING : RBR_COMMITTING;
	if (rbr.trace)
		rbr_trace_event(level, "event %d: reserved (clock %llu); %s", i, e->post,
				discard ? "ring_buffer_discard_commit()" : "ring_buffer_unlock_commit()");
	if (discard)
		rbr.var->discard(event);
	else
		rbr.var->commit(event);
	kernel_quiet(i, discard ? "ring_buffer_discard_commit" : "ring_buffer_unlock_commit");
	e->done = true;
	v->ev = -1;
	v->phase = RBR_IDLE;
	/* the event's locals are gone: as at the start of its turn */
	forget(v, 0);
	if (rbr.trace)
		rbr_trace_event(level, "event %d: %s", i, discard ? "discarded" : "committed");
}

/* One turn of a context: events until it stops or its budget is spent. */
static void run_instance(int level)
{
	struct rbr_level *v = &rbr.lv[level];
	int prev = rbr.top;

	rbr.top = level;
	v->active = true;
	v->inst_ops = 0;
	v->ev = -1;
	forget(v, 0);
	while (v->ops_left) {
		bool discard;

		/* an interrupt writes at least one event, then may return */
		if (level > 0 && v->inst_ops > 0 && !rbr_choose(2, RBR_CHOOSE_GO_ON))
			break;
		discard = rbr.discards && rbr_choose(2, RBR_CHOOSE_DISCARD);
		v->ops_left--;
		v->inst_ops++;
		exec_event(level, discard);
	}
	v->active = false;
	rbr.top = prev;
}

/*
 * Before an access of the current context: a higher context may run here
 * (and another after it, and so on), or none.
 *
 * The reduction: if the context's last access was a load of a word, with
 * no choice of its own since, and the interrupt that ran here left that
 * word as the load found it, then the interrupt run just before the load
 * is the same execution: the load finds the same value (it changes
 * nothing the interrupt could see; only the context's own event space is
 * written with plain stores, and a nested context never reads it), the
 * same candidates were there, and the higher context ran from the same
 * buffer, clock and events.  That execution is explored at the earlier
 * point (a later pick there: depth first, after this one), so this one
 * stops as pruned.
 */
void rbr_point(const void *word)
{
	int level = rbr.top;
	struct rbr_level *v = &rbr.lv[level];

	if (++rbr.steps > RBR_MAX_STEPS)
		rbr_fail("livelock: more than %d accesses in one execution", RBR_MAX_STEPS);
	if (rbr.var->counter_only(word))
		return;
	for (;;) {
		int cand[RBR_MAX_DEPTH], n = 0, pick;
		const void *lw = v->load_word;

		for (int j = level + 1; j < rbr.depth; j++)
			if (rbr.lv[j].ops_left > 0)
				cand[n++] = j;
		if (!n)
			return;
		pick = rbr_choose(n + 1, RBR_CHOOSE_INTERRUPT);
		if (!pick)
			return;
		run_instance(cand[pick - 1]);
		v->resumed = true;
		v->load_word = NULL;
		/* every interrupt-point word is 8 bytes (local_t, local64_t) */
		if (rbr.reducing && lw && *(const u64 *)lw == v->load_val && rbr.pos >= rbr.plen) {
			rbr.commuted++;
			longjmp(rbr.out, RBR_END_PRUNED);
		}
	}
}

void rbr_done(const void *word, enum rbr_access kind, u64 val, bool modified)
{
	struct rbr_level *v = &rbr.lv[rbr.top];

	v->seen = rbr_mix(v->seen, val << 3 | kind);
	/*
	 * The buffer as this access left it, what plain loads after it see,
	 * follows from what this context found so far, unless an interrupt
	 * came since its last access.
	 */
	if (v->resumed)
		v->seen = rbr.var->hash(v->seen, rbr_mix);
	v->resumed = false;
	v->load_word = kind == RBR_LOAD ? word : NULL;
	v->load_val = val;
	if (rbr.trace)
		rbr_trace_access(rbr.top, word, kind, val, modified);
	if (kind == RBR_LOAD && v->phase == RBR_RESERVING && v->after_c && v->ev >= 0) {
		const char *name = rbr.var->word_name(word);
		struct rbr_event *e = &rbr.ev[v->ev];

		if (name && !strcmp(name, "before_stamp")) {
			e->have_before = true;
			e->last_before = val;
		} else if (name && !strcmp(name, "write_stamp")) {
			e->have_write = true;
			e->last_write = val;
		}
	}
	if (kind == RBR_RMW && v->phase == RBR_RESERVING && !v->after_c &&
	    rbr.var->is_write_index(word)) {
		v->after_c = true;
		/* an event it interrupts after that one's C: it came after (F's check) */
		for (int l = 0; l < rbr.top; l++)
			if (rbr.lv[l].active && rbr.lv[l].phase == RBR_RESERVING && rbr.lv[l].after_c)
				rbr.ev[rbr.lv[l].ev].came_after = true;
	}
}

/*
 * The trace clock: an interrupt may come before the read; it moved, or
 * not, or (--clock-jump, once an execution: the state space grows with
 * every choice) it jumped past what a 27-bit delta holds.
 */
u64 rbr_clock(void)
{
	bool jump_left = rbr_clock_jumps && rbr.clock < RBR_CLOCK0 + RBR_JUMP;
	int moved;

	rbr_point(&rbr.clock);
	moved = rbr_choose(jump_left ? 3 : 2, RBR_CHOOSE_CLOCK);
	if (moved)
		rbr.clock += moved == 2 ? RBR_JUMP : RBR_TICK;
	rbr_done(&rbr.clock, RBR_CLOCK, rbr.clock, moved);
	/* what the reserving event may be stamped with */
	if (rbr.top >= 0 && rbr.lv[rbr.top].phase == RBR_RESERVING && rbr.lv[rbr.top].ev >= 0) {
		struct rbr_event *e = &rbr.ev[rbr.lv[rbr.top].ev];

		if (e->nreads < RBR_MAX_READS)
			e->reads[e->nreads++] = rbr.clock;
	}
	return rbr.clock;
}

int rbr_run_once(void)
{
	int end;

	rbr.var->reset();
	memset(rbr.lv, 0, sizeof(rbr.lv));
	for (int l = 0; l < rbr.depth; l++)
		rbr.lv[l].ops_left = rbr.ops[l];
	rbr.clock = RBR_CLOCK0;
	rbr.nev = 0;
	rbr.overlapped = false;
	rbr.top = -1;
	rbr.steps = 0;
	rbr.pos = 0;
	rbr.loglen = 0;
	rbr.log[0] = '\0';
	rbr.warning = NULL;
	rbr.why[0] = '\0';
	end = setjmp(rbr.out);
	if (!end) {
		run_instance(0);
		rbr_check_buffer();
		end = RBR_END_OK;
	}
	if (end == RBR_END_ELSEWHERE) {
		rbr.elsewhere++;
		return RBR_END_PRUNED;
	}
	rbr.executions++;
	if (end == RBR_END_OK)
		rbr.complete++;
	else if (end == RBR_END_PRUNED)
		rbr.pruned++;
	return end;
}

/*
 * The bound being explored, for people: "depth 2, 2 events" when every
 * level has the same budget, else "depth 2, events 1,3" (per level,
 * outermost first); "on 32-byte sub-buffers" when they are not the
 * default's.
 */
const char *rbr_bound(char *buf, size_t len)
{
	bool same = true;
	size_t n;

	for (int l = 1; l < rbr.depth; l++)
		same &= rbr.ops[l] == rbr.ops[0];
	if (same) {
		n = snprintf(buf, len, "depth %d, %d event%s", rbr.depth, rbr.ops[0],
			     rbr.ops[0] > 1 ? "s" : "");
	} else {
		n = snprintf(buf, len, "depth %d, events ", rbr.depth);
		for (int l = 0; l < rbr.depth && n < len; l++)
			n += snprintf(buf + n, len - n, "%s%d", l ? "," : "", rbr.ops[l]);
	}
	if (rbr_page_size != RBR_PAGE_DEFAULT && n < len)
		n += snprintf(buf + n, len - n, " on %lu-byte sub-buffers", rbr_page_size);
	if (rbr_clock_jumps && n < len)
		snprintf(buf + n, len - n, " with a clock jump");
	return buf;
}

/* A line on stderr every 30 s of a long bound: how far it is. */
static void progress(void)
{
	static time_t last;
	time_t now = time(NULL);
	char bound[64];

	if (!last)
		last = now;
	if (now - last < 30)
		return;
	last = now;
	rbr_bound(bound, sizeof(bound));
	if (rbr.split_n)
		fprintf(stderr, "rbreserve: job %d of %d: %s: %llu executions, %llu states so far\n",
			rbr.split_i + 1, rbr.split_n, bound, rbr.executions, rbr.states);
	else
		fprintf(stderr, "rbreserve: %s: %llu executions, %llu states so far\n",
			bound, rbr.executions, rbr.states);
}

/* Every execution, depth first; stops at the first counterexample. */
int rbr_explore(void)
{
	/* states of another bound have another future: forget them */
	rbm_search_forget();
	rbr.plen = 0;
	for (;;) {
		int end = rbr_run_once();

		if (!(rbr.executions & 0xffff))
			progress();

		if (end == RBR_END_VIOLATION || end == RBR_END_UNMODELLED)
			return end;
		while (rbr.plen > 0 && rbr.path[rbr.plen - 1].pick + 1 >= rbr.path[rbr.plen - 1].n)
			rbr.plen--;
		if (!rbr.plen)
			return RBR_END_OK;
		rbr.path[rbr.plen - 1].pick++;
	}
}

/*
 * Knuth's estimate of the number of executions of the bound without
 * pruning: the mean, over @probes executions with random picks, of the
 * product of the widths of the choices each made.
 */
double rbr_estimate(unsigned long probes, double *max_weight)
{
	double sum = 0;

	rbr.estimating = true;
	rbr.hashing = false;
	rbr.rng = 0x9e3779b97f4a7c15ULL;
	*max_weight = 0;
	for (unsigned long i = 0; i < probes; i++) {
		rbr.plen = 0;
		rbr.weight = 1;
		rbr_run_once();
		sum += rbr.weight;
		if (rbr.weight > *max_weight)
			*max_weight = rbr.weight;
	}
	rbr.estimating = false;
	return sum / probes;
}
