// SPDX-License-Identifier: GPL-2.0
/*
 * Live reader: per-CPU trace_pipe_raw of a tracefs instance, one
 * sub-buffer at a time, decoded with kbuffer.  Reading consumes, so a long
 * run never needs the buffer to hold all of it; the kernel tells us at the
 * start of a sub-buffer if events were lost before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kbuffer.h>
#include <tracefs.h>

#include "rb_capture.h"
#include "rb_live.h"
#include "rb_subbuf.h"
#include "rb_trace_clocks.h"

/* What each sub-buffer read goes through (rb_capture_drain_cpu's callback). */
struct live_ctx {
	const struct rb_live_opts	*o;
	struct rb_input			*in;
	struct kbuffer			*kbuf;
	struct rb_subbuf_layout		layout;
	int64_t				subbuf[RB_MAX_CPUS];	/* per CPU, in read order */
	struct rb_capture_writer	*save;			/* --save-raw, or NULL */
};

volatile int rb_live_stop;

/*
 * Writing trace_clock resets the buffer (tracing_set_clock()): the kernel
 * first stores the new clock id, which trace_clock shows at once, then
 * stamps with the new clock, then empties every CPU.  So after each
 * sub-buffer read the checker looks at trace_clock: unchanged, and that
 * sub-buffer was written before the switch began; changed, and it may hold
 * either clock, so it is not verified, the checker waits for the reset to
 * finish (current_tracer is read under the same trace_types_lock), and
 * starts every CPU afresh.
 */
struct clock_watch {
	int		clock_fd;
	int		tracer_fd;
	char		name[64];	/* the clock now, as trace_clock names it */
};

static struct clock_watch watch = { .clock_fd = -1, .tracer_fd = -1 };

/* The kernel's path counters at the start, or at the last reset (zero). */
static struct rb_path_counters before;

/* The selected clock in trace_clock ("local [global] counter ..."). */
static int read_clock(char *name, size_t len)
{
	char buf[512];
	ssize_t r = pread(watch.clock_fd, buf, sizeof(buf) - 1, 0);

	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return rb_trace_clock_selected(buf, name, len) ? 0 : -1;
}

/* Returns true if the buffer was (or is being) reset since the last look. */
static bool clock_switched(struct rb_input *in)
{
	char now[64], buf[64];

	if (watch.clock_fd < 0 || read_clock(now, sizeof(now)) < 0 ||
	    !strcmp(now, watch.name))
		return false;
	/* Wait until tracing_set_clock() has reset every CPU and let go. */
	if (pread(watch.tracer_fd, buf, sizeof(buf), 0) < 0)
		fprintf(stderr, "rbcheck: current_tracer: %s\n", strerror(errno));
	/* A fault loop switches hundreds of times: the summary counts them all. */
	if (in->v->resets < 3)
		fprintf(stderr, "rbcheck: trace_clock switched from %s to %s: the buffer was "
			"reset, every CPU starts afresh%s\n", watch.name, now,
			in->v->resets == 2 ? " (further switches: in the summary)" : "");
	snprintf(watch.name, sizeof(watch.name), "%s", now);
	rb_verify_reset(in->v, rb_clock_from_name(now));
	/*
	 * The reset zeroed the kernel's path counters too: count from there.
	 * The events before it were read, so the ledger is not exact (was_reset).
	 */
	memset(before.v, 0, sizeof(before.v));
	memset(before.untouched, 0, sizeof(before.untouched));
	in->expect_clock = -1;	/* the module may read any clock now */
	return true;
}

static void clock_watch_open(struct tracefs_instance *inst)
{
	char *path = tracefs_instance_get_file(inst, "trace_clock");

	watch.clock_fd = path ? open(path, O_RDONLY) : -1;
	tracefs_put_tracing_file(path);
	path = tracefs_instance_get_file(inst, "current_tracer");
	watch.tracer_fd = path ? open(path, O_RDONLY) : -1;
	tracefs_put_tracing_file(path);
	if (watch.clock_fd >= 0 && watch.tracer_fd >= 0 &&
	    read_clock(watch.name, sizeof(watch.name)) == 0)
		return;
	/* Without them the checker cannot follow a switch: it still verifies. */
	fprintf(stderr, "rbcheck: warning: cannot watch trace_clock: a clock switch would "
		"show as violations\n");
	if (watch.clock_fd >= 0)
		close(watch.clock_fd);
	watch.clock_fd = -1;
}

static void clock_watch_close(void)
{
	if (watch.clock_fd >= 0)
		close(watch.clock_fd);
	if (watch.tracer_fd >= 0)
		close(watch.tracer_fd);
	watch.clock_fd = watch.tracer_fd = -1;
}

/* A reloaded module's event may come back with another id. */
static int event_id(void *arg)
{
	char *text = tracefs_instance_file_read(NULL, "events/" RB_EVENT_SYSTEM "/"
						RB_EVENT_NAME "/id", NULL);
	int id = text ? atoi(text) : -1;

	free(text);
	return id;
}

/*
 * The last sub-buffers of each CPU, so that a violation can be kept with
 * what led to it without saving a whole soak.
 */
#define KEEP_SUBBUFS	32

struct keep_ring {
	char		*pages;		/* KEEP_SUBBUFS pages per CPU */
	unsigned int	n[RB_MAX_CPUS];	/* sub-buffers ever put, per CPU */
	bool		written;
	bool		clock_switched;	/* since the first put: no one clock */
};

static struct keep_ring keep;

static void keep_put(int cpu, const void *page, int psize)
{
	char *slot = keep.pages + ((size_t)cpu * KEEP_SUBBUFS + keep.n[cpu] % KEEP_SUBBUFS) * psize;

	memcpy(slot, page, psize);
	keep.n[cpu]++;
}

static uint64_t violations(const struct rb_verifier *v)
{
	uint64_t n = 0;

	for (int r = 0; r < RB_RULE_MAX; r++)
		n += v->rules[r].violations;
	return n;
}

/*
 * The same sub-buffers as whole pages, one file per CPU (cpuN.pages), the
 * form trace_pipe_raw has: 'trace-cmd restore' makes a trace.dat of them.
 */
static int keep_write_pages(const char *dir, int ncpus, int psize)
{
	char path[4200];

	for (int cpu = 0; cpu < ncpus; cpu++) {
		unsigned int n = keep.n[cpu], first = n > KEEP_SUBBUFS ? n - KEEP_SUBBUFS : 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/cpu%d.pages", dir, cpu);
		f = fopen(path, "w");
		if (!f)
			return -1;
		for (unsigned int i = first; i < n; i++)
			fwrite(keep.pages + ((size_t)cpu * KEEP_SUBBUFS + i % KEEP_SUBBUFS) * psize,
			       psize, 1, f);
		if (ferror(f) | fclose(f))
			return -1;
	}
	return 0;
}

/*
 * A raw capture in @dir of this kernel's sub-buffers: the formats first,
 * from the top level of tracefs.  NULL with in->err set on failure.
 */
static struct rb_capture_writer *capture_start(const char *dir, int psize, int ncpus,
					       const char *clock, struct rb_input *in)
{
	const char *tracefs = tracefs_tracing_dir();
	struct rb_capture_writer *w;
	char src[4200];

	w = rb_capture_create(dir, psize, ncpus, clock, NULL, in->err, sizeof(in->err));
	if (!w)
		return NULL;
	snprintf(src, sizeof(src), "%s/events/header_page", tracefs);
	if (rb_capture_copy(w, src, "header_page") < 0)
		goto fail;
	snprintf(src, sizeof(src), "%s/events/%s/%s/format", tracefs, RB_EVENT_SYSTEM,
		 RB_EVENT_NAME);
	if (rb_capture_copy(w, src, "format") < 0)
		goto fail;
	return w;
fail:
	rb_capture_finish(w, in->err, sizeof(in->err));
	return NULL;
}

/* Write the kept sub-buffers, oldest first, as a raw capture. */
static int keep_write(const char *dir, int ncpus, int psize, struct rb_input *in)
{
	struct rb_capture_writer *w = capture_start(dir, psize, ncpus,
						    keep.clock_switched ? "" : watch.name, in);

	if (!w)
		return -1;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		unsigned int n = keep.n[cpu], first = n > KEEP_SUBBUFS ? n - KEEP_SUBBUFS : 0;

		for (unsigned int i = first; i < n; i++)
			rb_capture_save(w, cpu, keep.pages +
					((size_t)cpu * KEEP_SUBBUFS + i % KEEP_SUBBUFS) * psize, psize);
	}
	keep.written = true;
	if (rb_capture_finish(w, in->err, sizeof(in->err)) < 0)
		return -1;
	if (keep_write_pages(dir, ncpus, psize) < 0) {
		snprintf(in->err, sizeof(in->err), "%s: %s", dir, strerror(errno));
		return -1;
	}
	fprintf(stderr, "rbcheck: first violation: the last sub-buffers of every CPU are in %s\n", dir);
	return 0;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One sub-buffer of @cpu, as read: verified, kept, saved. */
static int live_subbuf(void *arg, int cpu, void *page, int psize)
{
	struct live_ctx *x = arg;
	struct rb_input *in = x->in;

	in->subbufs++;
	if (clock_switched(in)) {
		if (x->save)
			rb_capture_clock_switched(x->save);
		keep.clock_switched = keep.pages != NULL;
		in->subbufs_across_reset++;
		x->subbuf[cpu]++;
		return 0;
	}
	if (keep.pages && !keep.written)
		keep_put(cpu, page, psize);
	if (x->save && rb_capture_save(x->save, cpu, page, psize) < 0) {
		snprintf(in->err, sizeof(in->err), "%s", rb_capture_error(x->save));
		return -1;
	}
	return rb_subbuf_feed(in, x->kbuf, page, &x->layout, cpu, x->subbuf[cpu]++);
}

/* The kernel's path counters of every CPU; counters->have: which it has. */
static void read_counters(struct tracefs_instance *inst, int ncpus,
			  struct rb_path_counters *k)
{
	k->have = 0;
	k->nr_cpus = ncpus;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char name[64];
		char *text;

		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(inst, name, NULL);
		if (text)
			k->have |= rb_counters_parse(text, k->v[cpu]);
		if (text) {
			k->dropped[cpu] = rb_counters_dropped(text);
			k->entries_left[cpu] = rb_stats_value(text, "entries");
			k->untouched[cpu] = rb_stats_untouched(text);
		}
		free(text);
	}
}

static void progress_line(const struct rb_input *in, double elapsed, double total)
{
	const struct rb_verifier *v = in->v;
	struct rb_ctx_stats tot[RB_CTX_MAX];
	uint64_t bad = violations(v);

	rb_verify_totals(v, tot);
	fprintf(stderr, "rbcheck: %4.0fs/%.0fs (%.0fs left) %" PRIu64 " events, nested"
		" %s/%s/%s %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", depth %u, %" PRIu64
		" lost, %" PRIu64 " violations\n", elapsed, total,
		total > elapsed ? total - elapsed : 0, v->events,
		rb_ctx_name(RB_CTX_SOFTIRQ), rb_ctx_name(RB_CTX_IRQ), rb_ctx_name(RB_CTX_NMI),
		tot[RB_CTX_SOFTIRQ].nested, tot[RB_CTX_IRQ].nested, tot[RB_CTX_NMI].nested,
		v->max_depth + 1, v->lost_events, bad);
}

int rb_live_read(const struct rb_live_opts *o, struct rb_input *in)
{
	struct tracefs_instance *inst = NULL;
	struct rb_capture_src src = { .ncpus = 0 };
	struct live_ctx x = { .o = o, .in = in };
	int ret = -1;
	int psize;
	double start, last_progress;
	int quiet;
	void *page = NULL;

	if (o->instance) {
		if (!tracefs_instance_exists(o->instance)) {
			snprintf(in->err, sizeof(in->err), "tracefs instance '%s' does not exist",
				 o->instance);
			return -1;
		}
		inst = tracefs_instance_alloc(NULL, o->instance);
		if (!inst) {
			snprintf(in->err, sizeof(in->err), "tracefs instance '%s': %s",
				 o->instance, strerror(errno));
			return -1;
		}
	}
	if (rb_capture_open(&src, tracefs_tracing_dir(), o->instance, in->err,
			    sizeof(in->err)) < 0)
		goto out;
	psize = src.subbuf_size;
	x.layout = (struct rb_subbuf_layout){
		.psize = psize, .long_size = sizeof(long),
		.big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
	};
	x.kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			       KBUFFER_ENDIAN_SAME_AS_HOST);
	page = malloc(psize);
	if (o->keep_failing)
		keep.pages = calloc((size_t)src.ncpus * KEEP_SUBBUFS, psize);
	if (!x.kbuf || !page || (o->keep_failing && !keep.pages)) {
		snprintf(in->err, sizeof(in->err), "out of memory");
		goto out;
	}
	if (o->save_dir) {
		x.save = capture_start(o->save_dir, psize, src.ncpus, src.clock, in);
		if (!x.save)
			goto out;
	}
	clock_watch_open(inst);
	in->resolve_id = event_id;
	if (in->expect_clock >= 0)
		in->v->buffer_clock = in->expect_clock;
	read_counters(inst, src.ncpus, &before);
	start = last_progress = now_sec();
	for (;;) {
		double t = now_sec();
		int got = 0;

		for (int cpu = 0; cpu < src.ncpus; cpu++) {
			int n = rb_capture_drain_cpu(&src, cpu, page, psize, RB_CAPTURE_TURN,
						     live_subbuf, &x, in->err, sizeof(in->err));

			if (n < 0)
				goto out;
			got += n;
		}
		if (o->progress > 0 && t - last_progress >= o->progress) {
			progress_line(in, t - start, o->duration);
			last_progress = t;
		}
		if (keep.pages && !keep.written && violations(in->v) &&
		    keep_write(o->keep_failing, src.ncpus, psize, in) < 0)
			goto out;
		if (o->stop_on_fail && violations(in->v)) {
			fprintf(stderr, "rbcheck: stopping at the first violation (--stop-on-fail)\n");
			break;
		}
		if (t - start >= o->duration || rb_live_stop)
			break;
		if (!got)
			usleep(20000);
	}

	/*
	 * Stop recording, then take what the buffers still hold, and what
	 * the writers already in flight still commit: the stats read below
	 * count their events too.
	 */
	tracefs_trace_off(inst);
	if (rb_capture_drain_quiet(&src, page, psize, o->quiet_ms, live_subbuf, &x, &quiet,
				   in->err, sizeof(in->err)) < 0)
		goto out;
	if (!quiet) {
		fprintf(stderr, "rbcheck: %s\n", in->err);
		in->err[0] = '\0';
	}
	read_counters(inst, src.ncpus, &in->counters);
	in->counters.have_left = true;
	rb_counters_sub(&in->counters, &before);
	ret = 0;
out:
	if (x.save && rb_capture_finish(x.save, ret ? NULL : in->err, sizeof(in->err)) < 0)
		ret = -1;
	rb_capture_close_src(&src);
	clock_watch_close();
	kbuffer_free(x.kbuf);
	free(page);
	free(keep.pages);
	keep.pages = NULL;
	tracefs_instance_free(inst);
	return ret;
}
