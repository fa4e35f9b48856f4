/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake machine for the memtier suites: memory nodes, CPU nodes and a
 * distance matrix, as the real kernel would pass them in.
 */
#ifndef _MM_MEMTIER_TESTS_FAKE_MACHINE_H
#define _MM_MEMTIER_TESTS_FAKE_MACHINE_H

#include <kunit/test.h>

#include "memtier.h"

/* Node roles in fake_machine_new()'s description. */
#define FM_NONE		0	/* absent */
#define FM_CPU_MEM	1	/* CPUs and memory */
#define FM_MEM		2	/* memory only */
#define FM_CPU		3	/* CPUs only */

/**
 * struct fake_machine - a topology with a distance matrix
 * @topo: what the library sees.
 * @nr_nodes: nodes 0 to @nr_nodes - 1 are described.
 * @dist: @dist[a * @nr_nodes + b] is the distance from a to b; sized by
 *	@nr_nodes, not %MAX_NUMNODES, which is 1024 in distribution kernels.
 */
struct fake_machine {
	struct memtier_topology topo;
	int nr_nodes;
	u8 *dist;
};

struct fake_machine *fake_machine_new(struct kunit *test, int nr_nodes,
				      const u8 *roles, const u8 *dist);
struct memtier_registry *fake_registry_new(struct kunit *test);
void fake_registry_empty(struct memtier_registry *reg);
void fake_state_destroy(struct memtier_state *state);
void fake_place(struct kunit *test, struct memtier_registry *reg,
		struct fake_machine *fm, const int *tier_of_node);
struct memtier_snapshot *fake_snapshot(struct kunit *test,
				       struct memtier_registry *reg,
				       struct fake_machine *fm);
nodemask_t fake_mask(int nr, const int *nodes);
void fake_registry_check(struct kunit *test, struct memtier_registry *reg,
			 struct fake_machine *fm);

#define FAKE_MASK(...) ({						\
	const int __n[] = { __VA_ARGS__ };				\
	fake_mask(ARRAY_SIZE(__n), __n);				\
})

#define FAKE_NO_NODES	NODE_MASK_NONE

#define KUNIT_EXPECT_NODEMASK_EQ(test, got, want) do {			\
	nodemask_t __g = (got), __w = (want);				\
	KUNIT_EXPECT_TRUE_MSG(test, nodes_equal(__g, __w),		\
			      "got %*pbl, want %*pbl",			\
			      nodemask_pr_args(&__g),			\
			      nodemask_pr_args(&__w));			\
} while (0)

#endif /* _MM_MEMTIER_TESTS_FAKE_MACHINE_H */
