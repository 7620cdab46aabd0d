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
 * The path counters of each CPU (per_cpu/cpuN/stats, kernel-patches/0002)
 * are kept from the start and the end, as cpuN.stats-before and
 * cpuN.stats-after: the host shows which time stamp paths the run took,
 * read_failed (the 32-bit rb_time_read() failure) among them.
 *
 * At the end (--duration elapsed, or SIGINT/SIGTERM) the instance's
 * tracing_on is cleared and everything left is read, so that the capture
 * holds every event the buffer kept.
 *
 * --stream FILE: the sub-buffers of all CPUs go to FILE as they are read,
 * as "stream.raw" records (u32 cpu, u32 length, the bytes), ended by a
 * record of cpu 0xffffffff; meta gets "stream_bytes N".  In the guest FILE
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
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rb_raw_format.h"

#define MAX_CPUS	64
/*
 * The stream is written in whole chunks: a write of a few bytes to a block
 * device makes the kernel read the block in first, one disk read per page.
 */
#define STREAM_CHUNK	(1 << 20)
/* Sub-buffers read from one CPU before the next gets its turn. */
#define ROUND_SUBBUFS	32

static const char *argv0 = "rbdrain";
static volatile sig_atomic_t stop;

struct drain {
	const char	*tracefs;
	const char	*instance;
	const char	*event;		/* SYSTEM/NAME: its format goes in the capture */
	const char	*out;
	int		psize;
	int		ncpus;
	int		in[MAX_CPUS];	/* trace_pipe_raw, O_NONBLOCK */
	int		raw[MAX_CPUS];	/* cpuN.raw, opened at the first sub-buffer */
	uint64_t	subbufs[MAX_CPUS];
	const char	*stream_path;	/* --stream: all CPUs' records go there */
	int		stream;
	uint64_t	stream_bytes;
	char		*chunk;		/* STREAM_CHUNK bytes, filled to chunk_len */
	size_t		chunk_len;
	char		*page;
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

/* "<tracefs>/instances/<instance>/<file>", or "<tracefs>/<file>" for the top. */
static void tracefs_path(const struct drain *d, char *buf, size_t len, const char *file, int top)
{
	if (top || !d->instance)
		snprintf(buf, len, "%s/%s", d->tracefs, file);
	else
		snprintf(buf, len, "%s/instances/%s/%s", d->tracefs, d->instance, file);
}

/* Copy a (small, text) tracefs file into the capture as @name. */
static int copy_file(const struct drain *d, const char *src, const char *name)
{
	char path[4096], buf[8192];
	int in, out, ret = 0;
	ssize_t r;

	in = open(src, O_RDONLY);
	if (in < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv0, src, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", d->out, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
		close(in);
		return -1;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, r) != r) {
			fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno ? errno : ENOSPC));
			ret = -1;
			break;
		}
	}
	if (r < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv0, src, strerror(errno));
		ret = -1;
	}
	close(in);
	if (close(out) < 0)
		ret = -1;
	return ret;
}

/* The stream's length, for the host to cut the disk image at: meta's last line. */
static int append_stream_bytes(const struct drain *d)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/meta", d->out);
	f = fopen(path, "a");
	if (!f || fprintf(f, "stream_bytes %llu\n", (unsigned long long)d->stream_bytes) < 0 ||
	    fclose(f)) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_meta(const struct drain *d)
{
	struct utsname u;
	char path[4096];
	FILE *f;

	if (uname(&u) < 0)
		snprintf(u.machine, sizeof(u.machine), "unknown");
	snprintf(path, sizeof(path), "%s/meta", d->out);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
		return -1;
	}
	fprintf(f, RB_RAW_MAGIC "\npage_size %d\nlong_size %d\nendian %s\nmachine %s\n",
		d->psize, (int)sizeof(long),
		__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little" : "big", u.machine);
	if (fclose(f)) {
		fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* per_cpu/cpuN/stats of every CPU, as cpuN.stats-@when. */
static int copy_stats(const struct drain *d, const char *when)
{
	char src[4096], file[64], name[64];

	for (int cpu = 0; cpu < d->ncpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		snprintf(name, sizeof(name), "cpu%d.stats-%s", cpu, when);
		tracefs_path(d, src, sizeof(src), file, 0);
		if (copy_file(d, src, name) < 0)
			return -1;
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	errno = 0;
	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/* Write the chunk out, zero-padded to a whole number of 4 KiB blocks. */
static int stream_flush(struct drain *d)
{
	size_t len = (d->chunk_len + 4095) & ~(size_t)4095;

	if (!d->chunk_len)
		return 0;
	memset(d->chunk + d->chunk_len, 0, len - d->chunk_len);
	if (write_all(d->stream, d->chunk, len) < 0) {
		fprintf(stderr, "%s: %s: %s\n", argv0, d->stream_path, strerror(errno ? errno : ENOSPC));
		return -1;
	}
	d->chunk_len = 0;
	return 0;
}

static int stream_append(struct drain *d, const void *buf, size_t len)
{
	while (len) {
		size_t n = STREAM_CHUNK - d->chunk_len;

		if (n > len)
			n = len;
		memcpy(d->chunk + d->chunk_len, buf, n);
		d->chunk_len += n;
		buf = (const char *)buf + n;
		len -= n;
		if (d->chunk_len == STREAM_CHUNK && stream_flush(d) < 0)
			return -1;
	}
	return 0;
}

static int stream_record(struct drain *d, uint32_t cpu, const void *buf, uint32_t len)
{
	uint32_t head[2] = { cpu, len };

	if (stream_append(d, head, sizeof(head)) < 0 || stream_append(d, buf, len) < 0)
		return -1;
	d->stream_bytes += sizeof(head) + len;
	return 0;
}

static int save_subbuf(struct drain *d, int cpu)
{
	uint32_t used = rb_raw_subbuf_used(d->page, d->psize);

	if (d->stream >= 0) {
		if (stream_record(d, cpu, d->page, used) < 0)
			return -1;
		d->subbufs[cpu]++;
		return 0;
	}
	if (d->raw[cpu] < 0) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/cpu%d.raw", d->out, cpu);
		d->raw[cpu] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (d->raw[cpu] < 0) {
			fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
			return -1;
		}
	}
	errno = 0;
	if (write(d->raw[cpu], &used, sizeof(used)) != sizeof(used) ||
	    write(d->raw[cpu], d->page, used) != (ssize_t)used) {
		fprintf(stderr, "%s: %s/cpu%d.raw: %s\n", argv0, d->out, cpu,
			strerror(errno ? errno : ENOSPC));
		return -1;
	}
	d->subbufs[cpu]++;
	return 0;
}

/*
 * Read what each CPU has now.  Returns the number of sub-buffers read, or
 * -1 on an error (said on stderr).
 */
static long drain_once(struct drain *d)
{
	long n = 0;

	for (int cpu = 0; cpu < d->ncpus; cpu++) {
		/*
		 * A bounded turn each: a CPU that writes faster than we drain
		 * must not starve the others, nor the clock and progress checks.
		 */
		for (int i = 0; i < ROUND_SUBBUFS; i++) {
			ssize_t r = read(d->in[cpu], d->page, d->psize);

			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			if (r < 0) {
				fprintf(stderr, "%s: per_cpu/cpu%d/trace_pipe_raw: %s\n",
					argv0, cpu, strerror(errno));
				return -1;
			}
			if (r == 0)
				break;
			if (r != d->psize) {
				fprintf(stderr, "%s: per_cpu/cpu%d/trace_pipe_raw: read %zd bytes, "
					"not a sub-buffer of %d\n", argv0, cpu, r, d->psize);
				return -1;
			}
			if (save_subbuf(d, cpu) < 0)
				return -1;
			n++;
		}
	}
	return n;
}

static int open_cpus(struct drain *d)
{
	char path[4096], file[64];

	for (d->ncpus = 0; d->ncpus < MAX_CPUS; d->ncpus++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", d->ncpus);
		tracefs_path(d, path, sizeof(path), file, 0);
		d->in[d->ncpus] = open(path, O_RDONLY | O_NONBLOCK);
		if (d->in[d->ncpus] < 0) {
			if (errno == ENOENT && d->ncpus > 0)
				break;
			fprintf(stderr, "%s: %s: %s\n", argv0, path, strerror(errno));
			return -1;
		}
		d->raw[d->ncpus] = -1;
	}
	return 0;
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
"\n"
"exit status: 0 done, 1 an I/O error (said on stderr), 2 usage\n", argv0);
}

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\n", argv0, msg, arg);
	fprintf(stderr, "%s: see '%s --help'\n", argv0, argv0);
	return 2;
}

static int parse_seconds(const char *s, long max, long *out)
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
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct drain d = { .tracefs = "/sys/kernel/tracing", .event = "rbstress/rbstress_event",
			   .stream = -1 };
	long duration = -1, progress = 10, n;
	char path[4096], file[512];
	double start, last, end;
	uint64_t total = 0;
	int c, ret = 0;
	struct sigaction sa;
	struct stat st;

	while ((c = getopt_long(argc, argv, "i:d:o:e:t:p:S:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': d.instance = optarg; break;
		case 'd':
			if (parse_seconds(optarg, 1000000, &duration) < 0 || duration < 1)
				return bad_usage("--duration must be 1 to 1000000 seconds, not", optarg);
			break;
		case 'o': d.out = optarg; break;
		case 'e':
			if (!strchr(optarg, '/'))
				return bad_usage("--event takes SYSTEM/NAME, not", optarg);
			d.event = optarg;
			break;
		case 't': d.tracefs = optarg; break;
		case 'p':
			if (parse_seconds(optarg, 1000000, &progress) < 0)
				return bad_usage("--progress must be a number of seconds, not", optarg);
			break;
		case 'S': d.stream_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "%s: see '%s --help'\n", argv0, argv0);
			return 2;
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument", argv[optind]);
	if (!d.instance || !d.out || duration < 0) {
		fprintf(stderr, "%s: --instance, --duration and --out are required\n", argv0);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/instances/%s", d.tracefs, d.instance);
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: %s: no such tracefs instance (is tracefs mounted at %s?)\n",
			argv0, path, d.tracefs);
		return 2;
	}
	if (mkdir(d.out, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", argv0, d.out, strerror(errno));
		return 1;
	}
	if (d.stream_path) {
		d.stream = open(d.stream_path, O_WRONLY);
		d.chunk = malloc(STREAM_CHUNK + 4096);
		if (d.stream < 0 || !d.chunk) {
			fprintf(stderr, "%s: --stream %s: %s\n", argv0, d.stream_path, strerror(errno));
			return 1;
		}
	}
	d.psize = getpagesize();
	d.page = malloc(d.psize);
	if (!d.page || open_cpus(&d) < 0)
		return 1;

	snprintf(file, sizeof(file), "events/%s/format", d.event);
	tracefs_path(&d, path, sizeof(path), file, 1);
	if (write_meta(&d) < 0 || copy_file(&d, path, "format") < 0)
		return 1;
	tracefs_path(&d, path, sizeof(path), "events/header_page", 1);
	if (copy_file(&d, path, "header_page") < 0 || copy_stats(&d, "before") < 0)
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

	/* Stop the writers' recording, then read what is left, to the last event. */
	tracefs_path(&d, path, sizeof(path), "tracing_on", 0);
	if (write_text(path, "0") < 0)
		fprintf(stderr, "%s: %s: cannot stop tracing: %s\n", argv0, path, strerror(errno));
	do {
		n = drain_once(&d);
		if (n < 0)
			return 1;
		total += n;
	} while (n > 0);
	if (copy_stats(&d, "after") < 0)
		ret = 1;
	if (d.stream >= 0) {
		if (stream_record(&d, RB_RAW_STREAM_END, NULL, 0) < 0 || stream_flush(&d) < 0 ||
		    fsync(d.stream) < 0 || close(d.stream) < 0 || append_stream_bytes(&d) < 0)
			ret = 1;
	}
	for (int cpu = 0; cpu < d.ncpus; cpu++) {
		if (d.raw[cpu] >= 0 && close(d.raw[cpu]) < 0) {
			fprintf(stderr, "%s: %s/cpu%d.raw: %s\n", argv0, d.out, cpu, strerror(errno));
			ret = 1;
		}
		close(d.in[cpu]);
	}
	printf("rbts: drained %llu sub-buffers from %d CPU(s) in %.0fs into %s\n",
	       (unsigned long long)total, d.ncpus, now() - start, d.stream >= 0 ? d.stream_path : d.out);
	free(d.page);
	free(d.chunk);
	return ret;
}
