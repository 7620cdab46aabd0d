// SPDX-License-Identifier: GPL-2.0
/*
 * Exploring one bound with several processes (--jobs N).
 *
 * Every job re-runs the same executions up to the first few choices
 * (the split: 6 + 2 log2 N of them, subtrees enough for N jobs to share
 * evenly and few enough to keep most of the pruning), and explores below
 * them only the subtrees whose picks hash to its own number: each subtree
 * is one job's, whatever the others do.  Above the split no job prunes at
 * a state already explored (another job's subtree may be what explored
 * it), below it a job prunes at the states it explored itself, all in its
 * own subtrees.  The jobs share no state set: they lose the pruning across
 * subtrees (docs/model.md has what that costs).
 *
 * A job sends its counts, and its counterexample if it found one, down a
 * pipe when it ends; the first counterexample stops the others.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rbr_model.h"

struct rbr_job_result {
	int end;
	unsigned long long executions, complete, pruned, states, commuted;
	int pos;
	unsigned char picks[RBR_MAX_PATH];
	char why[sizeof(rbr.why)];
};

static void run_job(int i, int jobs, int fd)
{
	struct rbr_job_result r = { 0 };
	const char *p = (const char *)&r;
	size_t left = sizeof(r);

	rbr.split_i = i;
	rbr.split_n = jobs;
	rbr.split_depth = 6;
	for (int n = 1; n < jobs; n <<= 1)
		rbr.split_depth += 2;
	/* the parent adds this job's counts to its own */
	rbr.executions = rbr.complete = rbr.pruned = rbr.states = rbr.commuted = 0;
	r.end = rbr_explore();
	r.executions = rbr.executions;
	r.complete = rbr.complete;
	r.pruned = rbr.pruned;
	r.states = rbr.states;
	r.commuted = rbr.commuted;
	r.pos = rbr.pos;
	for (int k = 0; k < rbr.pos; k++)
		r.picks[k] = rbr.path[k].pick;
	memcpy(r.why, rbr.why, sizeof(r.why));
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(3);
		p += n;
		left -= n;
	}
	_exit(0);
}

static bool read_result(int fd, struct rbr_job_result *r)
{
	char *p = (char *)r;
	size_t left = sizeof(*r);

	while (left) {
		ssize_t n = read(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		left -= n;
	}
	return true;
}

/*
 * Explore the bound set up in rbr with @jobs processes; the counts are
 * their sums, and a counterexample's path is left in rbr.path[0, pos) as
 * rbr_explore() leaves it.  Returns as rbr_explore() does.
 */
int rbr_explore_jobs(int jobs)
{
	pid_t pid[64];
	int fd[64], end = RBR_END_OK, running = 0;
	bool found = false;

	if (jobs <= 1)
		return rbr_explore();
	if (jobs > 64)
		jobs = 64;
	fflush(stdout);
	for (int i = 0; i < jobs; i++) {
		int p[2];

		if (pipe(p) < 0) {
			perror("rbreserve: pipe");
			exit(2);
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("rbreserve: fork");
			exit(2);
		}
		if (!pid[i]) {
			close(p[0]);
			run_job(i, jobs, p[1]);
		}
		close(p[1]);
		fd[i] = p[0];
		running++;
	}
	while (running) {
		struct rbr_job_result r;
		int status, i;
		bool ok;
		pid_t w = wait(&status);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < jobs && pid[i] != w; i++)
			;
		if (i == jobs)
			continue;
		running--;
		pid[i] = 0;
		ok = WIFEXITED(status) && !WEXITSTATUS(status) && read_result(fd[i], &r);
		close(fd[i]);
		if (!ok) {
			if (found)
				continue;	/* stopped by us */
			fprintf(stderr, "rbreserve: job %d of %d failed\n", i + 1, jobs);
			exit(2);
		}
		rbr.executions += r.executions;
		rbr.complete += r.complete;
		rbr.pruned += r.pruned;
		rbr.states += r.states;
		rbr.commuted += r.commuted;
		if (r.end == RBR_END_OK || found)
			continue;
		/* the first counterexample (or escape from the model) ends the bound */
		found = true;
		end = r.end;
		rbr.pos = r.pos;
		for (int k = 0; k < r.pos; k++)
			rbr.path[k].pick = r.picks[k];
		memcpy(rbr.why, r.why, sizeof(rbr.why));
		for (int k = 0; k < jobs; k++)
			if (pid[k])
				kill(pid[k], SIGTERM);
	}
	return end;
}
