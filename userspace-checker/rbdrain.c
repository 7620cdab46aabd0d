// SPDX-License-Identifier: GPL-2.0
/*
 * rbdrain - copy every CPU's sub-buffers of a tracefs instance into a raw
 * capture that 'rbcheck verify' reads on another machine.
 *
 * It runs in guests that cannot run rbcheck (an i386 guest: rbcheck is an
 * x86_64 program on libtracefs), so it needs nothing but libc and is linked
 * statically.  It does what trace-cmd's recorder does: read
 * per_cpu/cpuN/trace_pipe_raw a sub-buffer at a time without blocking, and
 * write each sub-buffer as it came, in the format of rbcheck's --save-raw
 * (rb_raw_format.h): "meta", "header_page", "format" and "cpuN.raw"
 * (records of a u32 length, then that many bytes of sub-buffer).
 * The sub-buffer header and the events stay in the guest's byte order and
 * long size; meta says which, and rbcheck reads them that way.
 *
 * The path counters of each CPU (per_cpu/cpuN/stats, the counters patch
 * of kernel-patches/LINE/test/) are kept from the start and the end, as
 * cpuN.stats-before and cpuN.stats-after: the host shows which time
 * stamp paths the run took, read_failed (the 32-bit rb_time_read()
 * failure) among them.
 *
 * At the end (--duration elapsed, or SIGINT/SIGTERM) the instance's
 * tracing_on is cleared and everything left is read, until the writers
 * already in flight are done (rb_capture_drain_quiet()), so that the
 * capture holds every event the buffer kept and the stats after count
 * no event still to come.
 *
 * --stream FILE: the sub-buffers of all CPUs go to FILE as they are read,
 * as "stream.raw" records (u32 cpu, u32 length, the bytes), ended by a
 * record of cpu 0xffffffff; meta gets "stream_bytes N" (and, as without
 * --stream, "cpuN_bytes": each CPU's share).  In the guest FILE
 * is a virtio disk: a long run is then bounded by the host's disk, not by
 * the guest's memory, where /out lives.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rb_capture.h"

static const char *argv0 = "rbdrain";
static volatile sig_atomic_t stop;

struct drain {
	const char		*tracefs;
	struct rb_capture_src	src;
	struct rb_capture_writer *w;
	int			psize;
	char			*page;
	char			err[4400];
};

static void on_signal(int sig)
{
	stop = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* per_cpu/cpuN/stats of every CPU, as cpuN.stats-@when. */
static int copy_stats(struct drain *d, const char *when)
{
	char src[4200], name[64];

	for (int cpu = 0; cpu < d->src.ncpus; cpu++) {
		snprintf(src, sizeof(src), "%s/per_cpu/cpu%d/stats", d->src.dir, cpu);
		snprintf(name, sizeof(name), "cpu%d.stats-%s", cpu, when);
		if (rb_capture_copy(d->w, src, name) < 0) {
			fprintf(stderr, "%s: %s\n", argv0, rb_capture_error(d->w));
			return -1;
		}
	}
	return 0;
}

static int save(void *arg, int cpu, void *page, int psize)
{
	struct drain *d = arg;

	if (rb_capture_save(d->w, cpu, page, psize) < 0) {
		fprintf(stderr, "%s: %s\n", argv0, rb_capture_error(d->w));
		return -1;
	}
	return 0;
}

/*
 * Read what each CPU has now, a bounded turn each.  Returns the number of
 * sub-buffers read, or -1 on an error (said on stderr).
 */
static long drain_once(struct drain *d)
{
	long n = 0;

	for (int cpu = 0; cpu < d->src.ncpus; cpu++) {
		int got = rb_capture_drain_cpu(&d->src, cpu, d->page, d->psize, RB_CAPTURE_TURN,
					       save, d, d->err, sizeof(d->err));

		if (got < 0) {
			if (d->err[0])
				fprintf(stderr, "%s: %s\n", argv0, d->err);
			return -1;
		}
		n += got;
	}
	return n;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -1;
	close(fd);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s --instance NAME --duration SEC --out DIR [options]\n"
"\n"
"Copy every CPU's sub-buffers of the tracefs instance NAME into the raw\n"
"capture DIR for 'rbcheck verify DIR' (on any machine), for SEC seconds or\n"
"until SIGINT/SIGTERM; then stop the instance's tracing and read the rest.\n"
"\n"
"  -i, --instance NAME   the instance (its per_cpu/cpuN/trace_pipe_raw)\n"
"  -d, --duration SEC    how long to read (1 to 1000000)\n"
"  -o, --out DIR         the capture (created)\n"
"  -e, --event SYS/NAME  the event whose format goes in (rbstress/rbstress_event)\n"
"  -t, --tracefs DIR     where tracefs is mounted (/sys/kernel/tracing)\n"
"  -p, --progress SEC    a progress line every SEC seconds (0: none; default 10)\n"
"  -S, --stream FILE     write the sub-buffers to FILE (a disk) as one stream\n"
"                        instead of DIR/cpuN.raw; meta says how long it is\n"
"  -q, --quiet-ms MS     after tracing is off, read until nothing came and the\n"
"                        stats stood still for MS ms (0 to 10000; default 100)\n"
"\n"
"exit status: 0 done, 1 an I/O error (said on stderr), 2 usage\n", argv0);
}

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\n", argv0, msg, arg);
	fprintf(stderr, "%s: see '%s --help'\n", argv0, argv0);
	return 2;
}

static int parse_number(const char *s, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "instance",	required_argument, NULL, 'i' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "out",	required_argument, NULL, 'o' },
		{ "event",	required_argument, NULL, 'e' },
		{ "tracefs",	required_argument, NULL, 't' },
		{ "progress",	required_argument, NULL, 'p' },
		{ "stream",	required_argument, NULL, 'S' },
		{ "quiet-ms",	required_argument, NULL, 'q' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct drain d = { .tracefs = "/sys/kernel/tracing" };
	const char *instance = NULL, *event = "rbstress/rbstress_event", *out = NULL;
	const char *stream = NULL;
	long duration = -1, progress = 10, quiet_ms = RB_CAPTURE_QUIET_MS, n;
	char path[4200];
	double start, last, end;
	uint64_t total = 0;
	int c, ret = 0, quiet;
	struct sigaction sa;

	while ((c = getopt_long(argc, argv, "i:d:o:e:t:p:S:q:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': instance = optarg; break;
		case 'd':
			if (parse_number(optarg, 1000000, &duration) < 0 || duration < 1)
				return bad_usage("--duration must be 1 to 1000000 seconds, not", optarg);
			break;
		case 'o': out = optarg; break;
		case 'e':
			if (!strchr(optarg, '/'))
				return bad_usage("--event takes SYSTEM/NAME, not", optarg);
			event = optarg;
			break;
		case 't': d.tracefs = optarg; break;
		case 'p':
			if (parse_number(optarg, 1000000, &progress) < 0)
				return bad_usage("--progress must be a number of seconds, not", optarg);
			break;
		case 'S': stream = optarg; break;
		case 'q':
			if (parse_number(optarg, RB_CAPTURE_QUIET_MAX_MS, &quiet_ms) < 0)
				return bad_usage("--quiet-ms must be 0 to 10000 milliseconds, not", optarg);
			break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "%s: see '%s --help'\n", argv0, argv0);
			return 2;
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind]);
	if (!instance || !out || duration < 0) {
		fprintf(stderr, "%s: --instance, --duration and --out are required\n", argv0);
		return 2;
	}
	if (rb_capture_open(&d.src, d.tracefs, instance, d.err, sizeof(d.err)) < 0) {
		fprintf(stderr, "%s: %s\n", argv0, d.err);
		/* no such instance (or no buffers in it): the user named the wrong one */
		return errno == ENOENT ? 2 : 1;
	}
	d.psize = d.src.subbuf_size;
	d.page = malloc(d.psize);
	d.w = rb_capture_create(out, d.psize, d.src.ncpus, d.src.clock, stream, d.err,
				sizeof(d.err));
	if (!d.page || !d.w) {
		fprintf(stderr, "%s: %s\n", argv0, d.page ? d.err : "out of memory");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/format", d.tracefs, event);
	if (rb_capture_copy(d.w, path, "format") < 0) {
		fprintf(stderr, "%s: %s\n", argv0, rb_capture_error(d.w));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events/header_page", d.tracefs);
	if (rb_capture_copy(d.w, path, "header_page") < 0) {
		fprintf(stderr, "%s: %s\n", argv0, rb_capture_error(d.w));
		return 1;
	}
	if (copy_stats(&d, "before") < 0)
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	start = last = now();
	end = start + duration;
	while (!stop && now() < end) {
		n = drain_once(&d);
		if (n < 0)
			return 1;
		total += n;
		if (progress && now() - last >= progress) {
			last = now();
			printf("rbts: drain %4.0fs/%lds: %llu sub-buffers\n", last - start, duration,
			       (unsigned long long)total);
			fflush(stdout);
		}
		if (!n)
			usleep(20000);	/* as trace-cmd's recorder: poll, not spin */
	}

	/*
	 * Stop the writers' recording, then read what is left, to the last
	 * event of the writers still in flight.
	 */
	snprintf(path, sizeof(path), "%s/tracing_on", d.src.dir);
	if (write_text(path, "0") < 0)
		fprintf(stderr, "%s: %s: cannot stop tracing: %s\n", argv0, path, strerror(errno));
	n = rb_capture_drain_quiet(&d.src, d.page, d.psize, (int)quiet_ms, save, &d, &quiet,
				   d.err, sizeof(d.err));
	if (n < 0) {
		if (d.err[0])
			fprintf(stderr, "%s: %s\n", argv0, d.err);
		return 1;
	}
	total += n;
	if (!quiet) {
		fprintf(stderr, "%s: %s\n", argv0, d.err);
		d.err[0] = '\0';
	}
	if (copy_stats(&d, "after") < 0)
		ret = 1;
	if (rb_capture_finish(d.w, d.err, sizeof(d.err)) < 0) {
		fprintf(stderr, "%s: %s\n", argv0, d.err);
		ret = 1;
	}
	printf("rbts: drained %llu sub-buffers from %d CPU(s) in %.0fs into %s\n",
	       (unsigned long long)total, d.src.ncpus, now() - start, stream ? stream : out);
	rb_capture_close_src(&d.src);
	free(d.page);
	return ret;
}
