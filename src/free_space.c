// SPDX-License-Identifier: GPL-2.0-only
/*
 * The free-space bypass: while the target node has memory to spare, use
 * it.  Every recently accessed lower-tier page is promoted, hot or not,
 * as long as some zone keeps max(1 GiB, present/16) free above its
 * promotion watermark.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/memtier_promote.h>
#include <linux/overflow.h>
#include <linux/sizes.h>

/**
 * memtier_free_space_margin() - free pages to keep above the watermark
 * @present_pages: the target node's present pages.
 * @page_shift: PAGE_SHIFT.
 *
 * Return: max(1 GiB, @present_pages / 16), in pages.
 */
unsigned long memtier_free_space_margin(unsigned long present_pages,
					unsigned int page_shift)
{
	return max(SZ_1G >> page_shift, present_pages >> 4);
}
EXPORT_SYMBOL_IF_KUNIT(memtier_free_space_margin);

/**
 * memtier_free_space_enough() - may promotion skip hot page selection?
 * @present_pages: the target node's present pages.
 * @zones: its populated zones.
 * @nr_zones: entries in @zones.
 * @page_shift: PAGE_SHIFT.
 *
 * Return: true when a zone's free pages exceed its promotion watermark
 * by more than memtier_free_space_margin().
 */
bool memtier_free_space_enough(unsigned long present_pages,
			       const struct memtier_zone_free *zones,
			       unsigned int nr_zones, unsigned int page_shift)
{
	unsigned long margin, mark;
	unsigned int z;

	margin = memtier_free_space_margin(present_pages, page_shift);
	for (z = 0; z < nr_zones; z++) {
		/* A watermark too large to add to cannot be exceeded. */
		if (check_add_overflow(zones[z].promo_wmark, margin, &mark))
			continue;
		if (zones[z].free_pages > mark)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(memtier_free_space_enough);
