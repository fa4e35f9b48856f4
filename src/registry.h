/* SPDX-License-Identifier: GPL-2.0-only */
/* The registry's internals that KUnit reaches. */
#ifndef _MM_MEMTIER_REGISTRY_H
#define _MM_MEMTIER_REGISTRY_H

#include <kunit/visibility.h>

#include "memtier.h"

#if IS_ENABLED(CONFIG_KUNIT)
struct memtier_tier *memtier_tier_alloc(int id);
#endif

#endif /* _MM_MEMTIER_REGISTRY_H */
