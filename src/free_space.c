// SPDX-License-Identifier: GPL-2.0-only
/*
 * The free-space bypass: while the target node has memory to spare, use
 * it.  Every recently accessed lower-tier page is promoted, hot or not,
 * as long as some zone keeps max(1 GiB, present/16) free above its
 * promotion watermark.  The caller asks zone_watermark_ok() whether a
 * zone does, with this margin added to the watermark, so that free
 * pages are counted as the page allocator counts them.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/memtier_promote.h>
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
