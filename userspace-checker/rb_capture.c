// SPDX-License-Identifier: GPL-2.0
/*
 * Draining a tracefs instance's per-CPU buffers and writing the raw
 * capture: what trace-cmd's recorder does, in the format of
 * rb_raw_format.h.  libc only (see rb_capture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rb_capture.h"
#include "rb_raw_format.h"
#include "rb_trace_clocks.h"

/*
 * The stream is written in whole chunks: a write of a few bytes to a block
 * device makes the kernel read the block in first, one disk read per page.
 */
#define STREAM_CHUNK	(1 << 20)

struct rb_capture_writer {
	char		dir[4096];
	int		psize;
	int		ncpus;			/* meta's "cpus": the CPUs read */
	char		clock[32];		/* meta's "trace_clock" */
	bool		clock_switched;		/* meta's "trace_clock_switched" */
	int		fd[RB_MAX_CPUS];	/* cpuN.raw, opened at its first sub-buffer */
	uint64_t	bytes[RB_MAX_CPUS];	/* meta's "cpuN_bytes" at the end */
	const char	*stream_path;
	int		stream;			/* -1: cpuN.raw files */
	uint64_t	stream_bytes;
	char		*chunk;			/* STREAM_CHUNK (+ a block of padding) */
	size_t		chunk_len;
	int		failed;
	char		err[4400];
};

/* buffer_subbuf_size_kb, or the page size on kernels before 6.6. */
static int read_subbuf_size(struct rb_capture_src *s, char *err, size_t errlen)
{
	char path[4200], buf[32];
	ssize_t r;
	long kb;
	int fd;

	s->subbuf_size = getpagesize();
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", s->dir);
	fd = open(path, O_RDONLY);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	kb = strtol(buf, NULL, 10);
	if (kb <= 0 || kb > 1024 || kb * 1024 < s->subbuf_size) {
		snprintf(err, errlen, "%s: '%.20s' is not a sub-buffer size in KiB", path, buf);
		errno = EINVAL;
		return -1;
	}
	s->subbuf_size = (int)kb * 1024;
	return 0;
}

/* The clock trace_clock marks; "" where the file cannot be read. */
static void read_clock(struct rb_capture_src *s)
{
	char path[4200], buf[512];
	ssize_t r;
	int fd;

	s->clock[0] = '\0';
	snprintf(path, sizeof(path), "%s/trace_clock", s->dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[r > 0 ? r : 0] = '\0';
	if (!rb_trace_clock_selected(buf, s->clock, sizeof(s->clock)))
		s->clock[0] = '\0';
}

int rb_capture_open(struct rb_capture_src *s, const char *tracefs, const char *instance,
		    char *err, size_t errlen)
{
	char path[4200];
	struct stat st;

	if (instance)
		snprintf(s->dir, sizeof(s->dir), "%s/instances/%s", tracefs, instance);
	else
		snprintf(s->dir, sizeof(s->dir), "%s", tracefs);
	if (stat(s->dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: no such tracefs instance (is tracefs mounted at %s?)",
			 s->dir, tracefs);
		errno = ENOENT;
		return -1;
	}
	if (read_subbuf_size(s, err, errlen) < 0)
		return -1;
	read_clock(s);
	for (s->ncpus = 0; s->ncpus < RB_MAX_CPUS; s->ncpus++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", s->dir, s->ncpus);
		s->fd[s->ncpus] = open(path, O_RDONLY | O_NONBLOCK);
		if (s->fd[s->ncpus] < 0) {
			if (errno == ENOENT && s->ncpus > 0)
				break;
			int saved = errno;

			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rb_capture_close_src(s);
			errno = saved;
			return -1;
		}
	}
	return 0;
}

void rb_capture_close_src(struct rb_capture_src *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		close(s->fd[cpu]);
	s->ncpus = 0;
}

int rb_capture_drain_cpu(struct rb_capture_src *s, int cpu, void *page, int psize, int max,
			 rb_capture_fn fn, void *arg, char *err, size_t errlen)
{
	int n = 0;

	while (!max || n < max) {
		ssize_t r = read(s->fd[cpu], page, psize);

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (r < 0) {
			snprintf(err, errlen, "%s/per_cpu/cpu%d/trace_pipe_raw: %s", s->dir, cpu,
				 strerror(errno));
			return -1;
		}
		if (r == 0)
			break;
		/* The kernel hands out whole sub-buffers: anything else is damage. */
		if (r != psize) {
			snprintf(err, errlen, "%s/per_cpu/cpu%d/trace_pipe_raw: read %zd bytes, "
				 "not a sub-buffer of %d", s->dir, cpu, r, psize);
			return -1;
		}
		if (fn(arg, cpu, page, psize) < 0)
			return -1;
		n++;
	}
	return n;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A fingerprint (FNV-1a) of every CPU's per_cpu/cpuN/stats, less the
 * "now ts:" line, which moves with the clock, not with the buffer.  A
 * missing file counts as empty: kernels and look-alikes without stats
 * settle on the reads alone.
 */
static uint64_t stats_fingerprint(const struct rb_capture_src *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char path[4200], line[256];

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", s->dir, cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "now ts:", 7))
				continue;
			for (const char *c = line; *c; c++)
				h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
		}
		fclose(f);
		h = (h ^ (unsigned int)cpu) * 0x100000001b3ULL;
	}
	return h;
}

long rb_capture_drain_quiet(struct rb_capture_src *s, void *page, int psize, int quiet_ms,
			    rb_capture_fn fn, void *arg, int *quiet, char *err, size_t errlen)
{
	double deadline = now_sec() + RB_CAPTURE_QUIET_MAX_MS / 1000.0;
	uint64_t last = 0, fp;
	long total = 0;
	int rounds = 0;

	for (;;) {
		long n = 0;

		for (int cpu = 0; cpu < s->ncpus; cpu++) {
			int got = rb_capture_drain_cpu(s, cpu, page, psize, 0, fn, arg, err, errlen);

			if (got < 0)
				return -1;
			n += got;
		}
		total += n;
		fp = stats_fingerprint(s);
		if (rounds++ && !n && fp == last) {
			*quiet = 1;
			return total;
		}
		if (now_sec() >= deadline) {
			*quiet = 0;
			snprintf(err, errlen, "the buffer was not quiet %d ms after tracing was "
				 "turned off: the stats after may count events no reader got",
				 RB_CAPTURE_QUIET_MAX_MS);
			return total;
		}
		last = fp;
		usleep((useconds_t)quiet_ms * 1000);
	}
}

static int fail(struct rb_capture_writer *w, const char *fmt, ...)
{
	int saved = errno ? errno : ENOSPC;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->failed = 1;
	errno = saved;
	return -1;
}

static int write_all(int fd, const void *buf, size_t len)
{
	errno = 0;
	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

static int write_meta(struct rb_capture_writer *w)
{
	char path[4200];
	struct utsname u;
	FILE *f;

	if (uname(&u) < 0)
		snprintf(u.machine, sizeof(u.machine), "unknown");
	snprintf(path, sizeof(path), "%s/meta", w->dir);
	f = fopen(path, "w");
	if (!f)
		return fail(w, "%s: %s", path, strerror(errno));
	fprintf(f, RB_RAW_MAGIC "\npage_size %d\nlong_size %d\nendian %s\nmachine %s\ncpus %d\n",
		w->psize, (int)sizeof(long),
		__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "little" : "big", u.machine, w->ncpus);
	if (w->clock[0])
		fprintf(f, "trace_clock %s\n", w->clock);
	if (ferror(f) | fclose(f))
		return fail(w, "%s: %s", path, strerror(errno));
	return 0;
}

struct rb_capture_writer *rb_capture_create(const char *dir, int psize, int ncpus,
					    const char *clock, const char *stream,
					    char *err, size_t errlen)
{
	struct rb_capture_writer *w;

	if (ncpus < 1 || ncpus > RB_MAX_CPUS) {
		snprintf(err, errlen, "%s: %d CPUs: a capture holds 1 to %d", dir, ncpus, RB_MAX_CPUS);
		return NULL;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	w->psize = psize;
	w->ncpus = ncpus;
	snprintf(w->clock, sizeof(w->clock), "%s", clock ? clock : "");
	w->stream = -1;
	for (int i = 0; i < RB_MAX_CPUS; i++)
		w->fd[i] = -1;
	if (stream) {
		w->stream_path = stream;
		w->stream = open(stream, O_WRONLY);
		w->chunk = malloc(STREAM_CHUNK + 4096);
		if (w->stream < 0 || !w->chunk) {
			snprintf(err, errlen, "--stream %s: %s", stream, strerror(errno));
			if (w->stream >= 0)
				close(w->stream);
			free(w->chunk);
			free(w);
			return NULL;
		}
	}
	if (write_meta(w) < 0) {
		snprintf(err, errlen, "%s", w->err);
		rb_capture_finish(w, NULL, 0);
		return NULL;
	}
	return w;
}

int rb_capture_copy(struct rb_capture_writer *w, const char *src, const char *name)
{
	char path[4200], buf[8192];
	int in, out, ret = 0;
	ssize_t r;

	in = open(src, O_RDONLY);
	if (in < 0)
		return fail(w, "%s: %s", src, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return fail(w, "%s: %s", path, strerror(errno));
	}
	while ((r = read(in, buf, sizeof(buf))) > 0) {
		if (write_all(out, buf, r) < 0) {
			ret = fail(w, "%s: %s", path, strerror(errno ? errno : ENOSPC));
			break;
		}
	}
	if (r < 0)
		ret = fail(w, "%s: %s", src, strerror(errno));
	close(in);
	if (close(out) < 0 && !ret)
		ret = fail(w, "%s: %s", path, strerror(errno));
	return ret;
}

/* Write the chunk out, zero-padded to a whole number of 4 KiB blocks. */
static int stream_flush(struct rb_capture_writer *w)
{
	size_t len = (w->chunk_len + 4095) & ~(size_t)4095;

	if (!w->chunk_len)
		return 0;
	memset(w->chunk + w->chunk_len, 0, len - w->chunk_len);
	if (write_all(w->stream, w->chunk, len) < 0)
		return fail(w, "%s: %s", w->stream_path, strerror(errno ? errno : ENOSPC));
	w->chunk_len = 0;
	return 0;
}

static int stream_append(struct rb_capture_writer *w, const void *buf, size_t len)
{
	while (len) {
		size_t n = STREAM_CHUNK - w->chunk_len;

		if (n > len)
			n = len;
		memcpy(w->chunk + w->chunk_len, buf, n);
		w->chunk_len += n;
		buf = (const char *)buf + n;
		len -= n;
		if (w->chunk_len == STREAM_CHUNK && stream_flush(w) < 0)
			return -1;
	}
	return 0;
}

static int stream_record(struct rb_capture_writer *w, uint32_t cpu, const void *buf, uint32_t len)
{
	uint32_t head[2] = { cpu, len };

	if (stream_append(w, head, sizeof(head)) < 0 || stream_append(w, buf, len) < 0)
		return -1;
	w->stream_bytes += sizeof(head) + len;
	return 0;
}

int rb_capture_save(struct rb_capture_writer *w, int cpu, const void *page, int psize)
{
	uint32_t used = rb_raw_subbuf_used(page, psize);
	char path[4200];

	if (cpu < 0 || cpu >= w->ncpus) {
		errno = EINVAL;
		return fail(w, "cpu%d: the capture was started for %d CPUs", cpu, w->ncpus);
	}
	if (w->stream >= 0) {
		w->bytes[cpu] += 2 * sizeof(uint32_t) + used;
		return stream_record(w, cpu, page, used);
	}
	snprintf(path, sizeof(path), "%s/cpu%d.raw", w->dir, cpu);
	if (w->fd[cpu] < 0) {
		w->fd[cpu] = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (w->fd[cpu] < 0)
			return fail(w, "%s: %s", path, strerror(errno));
	}
	if (write_all(w->fd[cpu], &used, sizeof(used)) < 0 ||
	    write_all(w->fd[cpu], page, used) < 0)
		return fail(w, "%s: %s", path, strerror(errno ? errno : ENOSPC));
	w->bytes[cpu] += sizeof(used) + used;
	return 0;
}

/*
 * What a reader checks the capture against, written only once every
 * sub-buffer is: each CPU's bytes (in cpuN.raw, or in its stream
 * records), and the stream's length, for the host to cut the disk image
 * at.  A capture whose meta has "cpus" but not these was not finished.
 */
static int append_sizes(struct rb_capture_writer *w)
{
	char path[4200];
	int bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/meta", w->dir);
	f = fopen(path, "a");
	if (!f)
		return fail(w, "%s: %s", path, strerror(errno));
	for (int cpu = 0; cpu < w->ncpus; cpu++)
		bad |= fprintf(f, "cpu%d_bytes %llu\n", cpu, (unsigned long long)w->bytes[cpu]) < 0;
	if (w->stream >= 0)
		bad |= fprintf(f, "stream_bytes %llu\n", (unsigned long long)w->stream_bytes) < 0;
	if (w->clock_switched)
		bad |= fprintf(f, "trace_clock_switched 1\n") < 0;
	if (fclose(f) | bad)
		return fail(w, "%s: %s", path, strerror(errno ? errno : ENOSPC));
	return 0;
}

int rb_capture_finish(struct rb_capture_writer *w, char *err, size_t errlen)
{
	int failed;

	if (w->stream >= 0) {
		if (!w->failed &&
		    (stream_record(w, RB_RAW_STREAM_END, NULL, 0) < 0 || stream_flush(w) < 0))
			w->failed = 1;
		if ((fsync(w->stream) < 0 || close(w->stream) < 0) && !w->failed)
			fail(w, "%s: %s", w->stream_path, strerror(errno));
	}
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++)
		if (w->fd[cpu] >= 0 && close(w->fd[cpu]) < 0 && !w->failed)
			fail(w, "%s/cpu%d.raw: %s", w->dir, cpu, strerror(errno));
	if (!w->failed)
		append_sizes(w);
	failed = w->failed;
	if (failed && err)
		snprintf(err, errlen, "%s", w->err);
	free(w->chunk);
	free(w);
	return failed ? -1 : 0;
}

void rb_capture_clock_switched(struct rb_capture_writer *w)
{
	w->clock_switched = true;
}

const char *rb_capture_error(const struct rb_capture_writer *w)
{
	return w->err;
}
