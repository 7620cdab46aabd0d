// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rbstress/:
 *   control   read: "running" or "stopped"; write: start, stop, reset
 *   settings  the validated parameters and the NMI source in use
 *   stats     per CPU and context: calls, events, nested, refused, and the
 *             cost of recorded events ("cost flat N NS nested N NS": count
 *             and total ns, reserve to commit minus the window); per CPU:
 *             deepest nesting, four-deep stacks, NMIs sent and received,
 *             quiet periods
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "rbstress.h"

static struct dentry *rbs_dir;

static int rbs_stats_show(struct seq_file *m, void *v)
{
	int cpu, ctx;

	seq_printf(m, "nmi_source %s\n", rbs_nmi_source_names[rbs_settings.nmi_source]);
	for_each_possible_cpu(cpu) {
		const struct rbs_stats *s = &per_cpu_ptr(&rbs_cpu, cpu)->stats;

		for (ctx = 0; ctx < RBS_CTX_MAX; ctx++) {
			u64 refused = s->calls[ctx] > s->events[ctx] ?
				      s->calls[ctx] - s->events[ctx] : 0;

			if (!s->calls[ctx] && !s->events[ctx])
				continue;
			seq_printf(m, "cpu%d %s calls %llu events %llu nested %llu refused %llu\n",
				   cpu, rbs_ctx_name(ctx), s->calls[ctx], s->events[ctx],
				   s->nested[ctx], refused);
		}
		seq_printf(m, "cpu%d max_depth %u four_deep %llu nmi_sent %llu nmi_received %llu",
			   cpu, s->max_depth, s->four_deep, s->nmi_sent, s->nmi_received);
		seq_printf(m, " quiet_periods %llu\n", s->quiet_periods);
		for (ctx = 0; ctx < RBS_CTX_MAX; ctx++)
			seq_printf(m, "cpu%d %s cost flat %llu %llu nested %llu %llu\n",
				   cpu, rbs_ctx_name(ctx),
				   s->cost_n[ctx][RBS_COST_FLAT], s->cost_ns[ctx][RBS_COST_FLAT],
				   s->cost_n[ctx][RBS_COST_NESTED],
				   s->cost_ns[ctx][RBS_COST_NESTED]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rbs_stats);

static int rbs_settings_show(struct seq_file *m, void *v)
{
	const struct rbs_settings *s = &rbs_settings;

	seq_printf(m, "clock %s\n", rbs_clock_name(s->clock));
	seq_printf(m, "nmi_source %s\n", rbs_nmi_source_names[s->nmi_source]);
	seq_printf(m, "task_window_ns %u\ntask_gap_us %u\n",
		   s->window_ns[RBS_CTX_NORMAL], s->task_gap_us);
	seq_printf(m, "softirq_window_ns %u\nsoftirq_period_us %u\n",
		   s->window_ns[RBS_CTX_SOFTIRQ], s->softirq_period_us);
	seq_printf(m, "irq_window_ns %u\nirq_period_us %u\n",
		   s->window_ns[RBS_CTX_IRQ], s->irq_period_us);
	seq_printf(m, "nmi_window_ns %u\nnmi_period_us %u\n",
		   s->window_ns[RBS_CTX_NMI], s->nmi_period_us);
	seq_printf(m, "quiet_every_ms %u\nquiet_ms %u\n", s->quiet_every_ms, s->quiet_ms);
	seq_printf(m, "load_id %u\n", s->load_id);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rbs_settings);

static ssize_t rbs_control_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	const char *state = rbs_running() ? "running\n" : "stopped\n";

	return simple_read_from_buffer(ubuf, count, ppos, state, strlen(state));
}

static ssize_t rbs_control_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[16];
	int ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);

	if (!strcmp(buf, "start")) {
		ret = rbs_start();
	} else if (!strcmp(buf, "stop")) {
		rbs_stop();
	} else if (!strcmp(buf, "reset")) {
		/* The counters are plain per-CPU words: only while stopped. */
		if (rbs_running())
			return -EBUSY;
		rbs_reset_stats();
	} else {
		pr_err("control: '%s' is not start, stop or reset\n", buf);
		return -EINVAL;
	}
	return ret ? ret : count;
}

static const struct file_operations rbs_control_fops = {
	.owner	= THIS_MODULE,
	.read	= rbs_control_read,
	.write	= rbs_control_write,
	.llseek	= default_llseek,
};

void rbs_debugfs_init(void)
{
	rbs_dir = debugfs_create_dir("rbstress", NULL);
	debugfs_create_file("control", 0644, rbs_dir, NULL, &rbs_control_fops);
	debugfs_create_file("settings", 0444, rbs_dir, NULL, &rbs_settings_fops);
	debugfs_create_file("stats", 0444, rbs_dir, NULL, &rbs_stats_fops);
}

void rbs_debugfs_exit(void)
{
	debugfs_remove_recursive(rbs_dir);
}
