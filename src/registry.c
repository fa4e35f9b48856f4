// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tier registry: tiers keyed by an integer ID, each memory node in
 * exactly one of them.  A tier is created when its first node joins and
 * freed when its last node leaves.
 *
 * Every change either completes or leaves every assignment as it was:
 * anything that can fail (allocating the new tier, the owner's
 * tier_added callback) is done before the node leaves its old tier.
 */
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>

#include "memtier.h"
#include "registry.h"

/**
 * memtier_registry_init() - set up an empty registry
 * @reg: the registry.
 * @ops: the owner's callbacks, or NULL.
 *
 * The default tier starts as %DEFAULT_MEMORY_TIER.
 */
void memtier_registry_init(struct memtier_registry *reg,
			   const struct memtier_registry_ops *ops)
{
	int node;

	INIT_LIST_HEAD(&reg->tiers);
	reg->default_tier = DEFAULT_MEMORY_TIER;
	reg->ops = ops;
	for (node = 0; node < MAX_NUMNODES; node++)
		reg->node_tier[node] = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_init);

/**
 * memtier_registry_set_default() - change the tier new nodes join
 * @reg: the registry.
 * @id: the tier ID.
 *
 * Return: 0, or -EINVAL for an ID out of range (nothing changes).
 */
int memtier_registry_set_default(struct memtier_registry *reg, int id)
{
	if (!memtier_tier_id_valid(id))
		return -EINVAL;
	reg->default_tier = id;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_set_default);

/**
 * memtier_registry_find() - look a tier up by ID
 * @reg: the registry.
 * @id: the tier ID.
 *
 * Return: the tier, or NULL when no node is in tier @id.
 */
struct memtier_tier *memtier_registry_find(const struct memtier_registry *reg,
					   int id)
{
	struct memtier_tier *tier;

	memtier_for_each_tier(tier, reg) {
		if (tier->id == id)
			return tier;
		if (tier->id < id)
			break;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_find);

/**
 * memtier_registry_node_tier() - the tier ID of a node
 * @reg: the registry.
 * @node: the node, any value.
 *
 * Return: the ID, or %MEMTIER_NO_TIER for a node in no tier (a CPU-only
 * node, an absent node, an out-of-range number).
 */
int memtier_registry_node_tier(const struct memtier_registry *reg, int node)
{
	if (node < 0 || node >= MAX_NUMNODES || !reg->node_tier[node])
		return MEMTIER_NO_TIER;
	return reg->node_tier[node]->id;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_node_tier);

/*
 * A separate function so that KUnit can make the allocation fail: the
 * one failure a move can meet that the caller cannot check beforehand.
 */
VISIBLE_IF_KUNIT struct memtier_tier *memtier_tier_alloc(int id)
{
	struct memtier_tier *tier;

	KUNIT_STATIC_STUB_REDIRECT(memtier_tier_alloc, id);

	tier = kzalloc(sizeof(*tier), GFP_KERNEL);
	if (!tier)
		return NULL;
	INIT_LIST_HEAD(&tier->list);
	tier->id = id;
	return tier;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_tier_alloc);

/* Create tier @id and link it in its place; the tier starts empty. */
static struct memtier_tier *memtier_tier_create(struct memtier_registry *reg,
						int id)
{
	struct memtier_tier *tier, *pos;
	int ret;

	tier = memtier_tier_alloc(id);
	if (!tier)
		return ERR_PTR(-ENOMEM);

	memtier_for_each_tier(pos, reg) {
		if (pos->id < id)
			break;
	}
	/* Before the first lower tier, or at the tail. */
	list_add_tail(&tier->list, &pos->list);

	if (reg->ops && reg->ops->tier_added) {
		ret = reg->ops->tier_added(reg, tier);
		if (ret) {
			list_del(&tier->list);
			kfree(tier);
			return ERR_PTR(ret);
		}
	}
	return tier;
}

static void memtier_tier_release(struct memtier_registry *reg,
				 struct memtier_tier *tier)
{
	if (reg->ops && reg->ops->tier_removed)
		reg->ops->tier_removed(reg, tier);
	list_del(&tier->list);
	kfree(tier);
}

static int memtier_check_node(const struct memtier_topology *topo, int node)
{
	if (node < 0 || node >= MAX_NUMNODES)
		return -EINVAL;
	/* A CPU-only node, or one that is not there, has no memory to tier. */
	if (!node_isset(node, topo->memory_nodes))
		return -ENODEV;
	return 0;
}

/**
 * memtier_registry_set_node() - put a memory node in tier @id
 * @reg: the registry.
 * @topo: the machine; @node must be one of its memory nodes.
 * @node: the node.
 * @id: the tier ID, 0 to %MAX_MEMORY_TIER_ID.
 *
 * A node in no tier joins tier @id; a node in another tier moves.  Tier
 * @id is created if it does not exist, and the node's old tier is freed
 * if the node was its last.  Moving a node to the tier it is in already
 * succeeds and changes nothing.
 *
 * Context: the caller serialises all changes to @reg.  Callers that
 * publish a &struct memtier_snapshot rebuild it afterwards.
 *
 * Return: 0 on success.  On failure nothing changes: -EINVAL for an
 * out-of-range node or tier ID, -ENODEV for a node without memory (a
 * CPU-only or absent node), -ENOMEM when the new tier cannot be
 * allocated, or the error of &memtier_registry_ops.tier_added.
 */
int memtier_registry_set_node(struct memtier_registry *reg,
			      const struct memtier_topology *topo,
			      int node, int id)
{
	struct memtier_tier *old, *new;
	int ret;

	ret = memtier_check_node(topo, node);
	if (ret)
		return ret;
	if (!memtier_tier_id_valid(id))
		return -EINVAL;

	old = reg->node_tier[node];
	if (old && old->id == id)
		return 0;

	new = memtier_registry_find(reg, id);
	if (!new) {
		new = memtier_tier_create(reg, id);
		if (IS_ERR(new))
			return PTR_ERR(new);
	}

	/* Nothing below can fail. */
	node_set(node, new->nodes);
	reg->node_tier[node] = new;
	if (old) {
		node_clear(node, old->nodes);
		if (nodes_empty(old->nodes))
			memtier_tier_release(reg, old);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_set_node);

/**
 * memtier_registry_remove_node() - take a node out of its tier
 * @reg: the registry.
 * @node: the node; a node in no tier, or out of range, is ignored.
 *
 * The tier is freed if @node was its last node.
 */
void memtier_registry_remove_node(struct memtier_registry *reg, int node)
{
	struct memtier_tier *tier;

	if (node < 0 || node >= MAX_NUMNODES)
		return;
	tier = reg->node_tier[node];
	if (!tier)
		return;
	reg->node_tier[node] = NULL;
	node_clear(node, tier->nodes);
	if (nodes_empty(tier->nodes))
		memtier_tier_release(reg, tier);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_registry_remove_node);
