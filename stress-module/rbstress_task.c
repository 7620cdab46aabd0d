// SPDX-License-Identifier: GPL-2.0
/*
 * Normal-context writers: one kthread bound to each online CPU, writing
 * events in a loop.  Their windows are the outermost: softirq, IRQ and NMI
 * events land inside them.  Started and stopped per CPU by the hotplug
 * callbacks in rbstress_main.c.
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "rbstress.h"

static DEFINE_PER_CPU(struct task_struct *, rbs_task);

/*
 * A quiet period: no writer of this CPU records anything for quiet_ms, so
 * that the first event after it is further from the last one than an
 * event header's 27-bit delta can say (2^27 ns, about 134 ms) and the
 * ring buffer must add a time extend (the path "time_extend").  The
 * other CPUs keep writing, and their NMIs still arrive here: the flag
 * makes those record nothing too.
 */
static void rbs_quiet(unsigned int cpu)
{
	struct rbs_cpu *c = per_cpu_ptr(&rbs_cpu, cpu);

	WRITE_ONCE(c->quiet, true);
	c->stats.quiet_periods++;
	msleep(rbs_settings.quiet_ms);
	WRITE_ONCE(c->quiet, false);
}

static int rbs_task_fn(void *arg)
{
	unsigned int cpu = (unsigned long)arg;
	unsigned int every = rbs_settings.quiet_every_ms;
	/* Spread the CPUs' first quiet periods over one interval. */
	unsigned long next_quiet = jiffies +
		msecs_to_jiffies(every / (num_possible_cpus() + 1) * (cpu + 1));

	while (!kthread_should_stop()) {
		if (every && time_after_eq(jiffies, next_quiet)) {
			rbs_quiet(cpu);
			next_quiet = jiffies + msecs_to_jiffies(every);
		}
		rbs_write();
		if (rbs_settings.task_gap_us)
			usleep_range(rbs_settings.task_gap_us,
				     rbs_settings.task_gap_us + 10);
		else
			cond_resched();
	}
	return 0;
}

int rbs_task_start_cpu(unsigned int cpu)
{
	struct task_struct *t;

	t = kthread_create_on_cpu(rbs_task_fn, (void *)(unsigned long)cpu, cpu,
				  "rbstress/%u");
	if (IS_ERR(t)) {
		pr_err("cannot create the writer thread of cpu%u\n", cpu);
		return PTR_ERR(t);
	}
	/* Lowest priority: the checker reading the buffer comes first. */
	set_user_nice(t, MAX_NICE);
	per_cpu(rbs_task, cpu) = t;
	wake_up_process(t);
	return 0;
}

void rbs_task_stop_cpu(unsigned int cpu)
{
	struct task_struct *t = per_cpu(rbs_task, cpu);

	if (t) {
		kthread_stop(t);
		per_cpu(rbs_task, cpu) = NULL;
	}
}
