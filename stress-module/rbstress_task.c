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
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "rbstress.h"

static DEFINE_PER_CPU(struct task_struct *, rbs_task);

static int rbs_task_fn(void *arg)
{
	while (!kthread_should_stop()) {
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

	t = kthread_create_on_cpu(rbs_task_fn, NULL, cpu, "rbstress/%u");
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
