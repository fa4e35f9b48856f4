// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite memtier_demotion_race: picking a demotion target while the
 * targets are rebuilt.
 *
 * next_demotion_node() picks one of a node's preferred targets with
 * node_random(), and reclaim calls it while memory hotplug or a tier
 * move rebuilds the mask without excluding readers.  node_random() reads
 * the mask twice, for its weight and then for the n-th node: when nodes
 * leave the mask in between, there is no n-th node and it returns
 * MAX_NUMNODES, which demote_folio_list() would hand to the allocator.
 * Picking from a copy of the mask, as next_demotion_node() does, returns
 * a node of the copy.
 *
 * The case races a kthread that removes and restores two of three nodes
 * against both ways of reading, for a bounded time each.
 *
 * The rebuild itself: mainline cleared every node's targets, waited for
 * an RCU grace period and only then set the new ones, so that a reader
 * finds no target at all for a grace period at every rebuild, and
 * reclaim swaps or drops what it would have demoted.  Built aside and
 * stored with one assignment, the targets are the old ones or the new
 * ones.  The second case races a rebuild that moves a node's target
 * from one node to another, both ways, against a reader.
 *
 * Both cases need two online CPUs to race at all, and skip without them.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>

/* How long each way of reading races the writer. */
#define RACE_MS 300

/* The node that stays, and the two that come and go. */
#define RACE_STAYS 1
#define RACE_GOES_A 2
#define RACE_GOES_B 3

static int race_writer(void *data)
{
	nodemask_t *mask = data;

	while (!kthread_should_stop()) {
		node_clear(RACE_GOES_A, *mask);
		node_clear(RACE_GOES_B, *mask);
		node_set(RACE_GOES_A, *mask);
		node_set(RACE_GOES_B, *mask);
		cond_resched();
	}
	return 0;
}

static bool race_node_ok(int node)
{
	return node == RACE_STAYS || node == RACE_GOES_A || node == RACE_GOES_B;
}

/*
 * Pick from @mask for RACE_MS while the writer runs; @copy picks from a
 * copy.  Return how many picks were not a node of the mask, in @bad, and
 * how many were made.
 */
static unsigned long race_picks(struct kunit *test, nodemask_t *mask,
				bool copy, unsigned long *bad)
{
	unsigned long end = jiffies + msecs_to_jiffies(RACE_MS), picks = 0;
	struct task_struct *writer;
	nodemask_t snapshot;
	int node;

	*bad = 0;
	writer = kthread_run(race_writer, mask, "memtier_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(writer));
	while (time_before(jiffies, end)) {
		if (copy) {
			snapshot = *mask;
			node = node_random(&snapshot);
		} else {
			node = node_random(mask);
		}
		if (!race_node_ok(node))
			(*bad)++;
		picks++;
		if (!(picks & 1023))
			cond_resched();
	}
	kthread_stop(writer);
	return picks;
}

static void memtier_race_copy_never_picks_outside(struct kunit *test)
{
	nodemask_t *mask = kunit_kzalloc(test, sizeof(*mask), GFP_KERNEL);
	unsigned long picks, bad_copy, bad_shared;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	if (num_online_cpus() < 2)
		kunit_skip(test, "one online CPU: nothing races");
	node_set(RACE_STAYS, *mask);
	node_set(RACE_GOES_A, *mask);
	node_set(RACE_GOES_B, *mask);

	picks = race_picks(test, mask, true, &bad_copy);
	kunit_info(test, "from a copy: %lu of %lu picks not in the mask\n",
		   bad_copy, picks);
	KUNIT_EXPECT_EQ(test, bad_copy, 0);

	/* The read of mainline before the fix, to show the window is hit. */
	picks = race_picks(test, mask, false, &bad_shared);
	kunit_info(test, "from the shared mask: %lu of %lu picks not in the mask\n",
		   bad_shared, picks);
	if (!bad_shared)
		kunit_skip(test, "the race window was not hit in %lu picks", picks);
}

struct rebuild_race {
	nodemask_t targets;
	bool clear_first;
};

/*
 * A rebuild that moves the target from RACE_GOES_A to RACE_GOES_B and
 * back: mainline's order (clear, wait for readers, set) or the targets
 * built aside and stored at once.  Both nodes are in the mask's first
 * word, so that the store replaces them together.
 */
static int rebuild_writer(void *data)
{
	struct rebuild_race *race = data;
	nodemask_t next;
	int to = RACE_GOES_B;

	while (!kthread_should_stop()) {
		if (race->clear_first) {
			race->targets = NODE_MASK_NONE;
			synchronize_rcu();
		}
		next = NODE_MASK_NONE;
		node_set(to, next);
		race->targets = next;
		to = to == RACE_GOES_B ? RACE_GOES_A : RACE_GOES_B;
		cond_resched();
	}
	return 0;
}

/*
 * Read the targets for RACE_MS while the writer rebuilds them.  Return
 * how many reads were made, and in @empty how many found no target.
 */
static unsigned long rebuild_reads(struct kunit *test,
				   struct rebuild_race *race,
				   unsigned long *empty)
{
	unsigned long end = jiffies + msecs_to_jiffies(RACE_MS), reads = 0;
	struct task_struct *writer;
	nodemask_t seen;

	*empty = 0;
	writer = kthread_run(rebuild_writer, race, "memtier_rebuild");
	KUNIT_ASSERT_FALSE(test, IS_ERR(writer));
	while (time_before(jiffies, end)) {
		rcu_read_lock();
		seen = race->targets;
		rcu_read_unlock();
		if (nodes_empty(seen))
			(*empty)++;
		reads++;
		if (!(reads & 1023))
			cond_resched();
	}
	kthread_stop(writer);
	return reads;
}

static void memtier_race_rebuild_never_empty(struct kunit *test)
{
	struct rebuild_race *race = kunit_kzalloc(test, sizeof(*race),
						  GFP_KERNEL);
	unsigned long reads, empty;

	KUNIT_ASSERT_NOT_NULL(test, race);
	if (num_online_cpus() < 2)
		kunit_skip(test, "one online CPU: nothing races");
	node_set(RACE_GOES_A, race->targets);

	reads = rebuild_reads(test, race, &empty);
	kunit_info(test, "stored at once: %lu of %lu reads found no target\n",
		   empty, reads);
	KUNIT_EXPECT_EQ(test, empty, 0);

	/* Mainline's order before the fix, to show the window is hit. */
	race->clear_first = true;
	reads = rebuild_reads(test, race, &empty);
	kunit_info(test, "cleared first: %lu of %lu reads found no target\n",
		   empty, reads);
	if (!empty)
		kunit_skip(test, "no read found the targets empty in %lu", reads);
}

static struct kunit_case memtier_demotion_race_cases[] = {
	KUNIT_CASE(memtier_race_copy_never_picks_outside),
	KUNIT_CASE(memtier_race_rebuild_never_empty),
	{}
};

static struct kunit_suite memtier_demotion_race_suite = {
	.name = "memtier_demotion_race",
	.test_cases = memtier_demotion_race_cases,
};

kunit_test_suite(memtier_demotion_race_suite);
