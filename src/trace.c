// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memtier trace events, defined once here; the NUMA hint fault path
 * emits them (include/trace/events/memtier.h).
 */
#define CREATE_TRACE_POINTS
#include <trace/events/memtier.h>
