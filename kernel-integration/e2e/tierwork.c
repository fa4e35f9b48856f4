// SPDX-License-Identifier: GPL-2.0
/*
 * tierwork: the guest workload of the memtier end-to-end boots.
 *
 *   tierwork where MB NODE
 *	allocate MB on NODE, print how many pages sit on each node.
 *   tierwork demote MB NODE
 *	allocate and fill MB bound to NODE (more than it holds), so that
 *	reclaim must demote; verify every byte, print where the pages are.
 *   tierwork promote HOT_MB COLD_MB SLOW_NODE FAST_NODE SECONDS [FILE]
 *	place a hot and a cold set on SLOW_NODE, touch the hot set for up
 *	to SECONDS, print the share of each set on FAST_NODE every second
 *	and the time until 90% of the hot set was there, verify every byte.
 *	With FILE, print "promote_paused" before verifying and wait (up to
 *	120 s) until FILE exists: the caller can read the counters of the
 *	hot phase and switch tiering off, so that reading the cold set to
 *	verify it promotes nothing.
 *   tierwork sweep MB NODE SECONDS PASS_MS
 *	place MB on NODE and read each page once per PASS_MS, evenly
 *	spread, for SECONDS: a light load whose hint faults are mostly
 *	slower than the hot threshold; verify every byte.  PASS_MS 0
 *	reads as fast as it can.  Prints the pages read (whole passes),
 *	the time that took, and the task's system time.
 *   tierwork warm HOT_MB WARM_MB SLOW_NODE FAST_NODE SECONDS WARM_MS
 *	place a hot and a warm set on SLOW_NODE; for SECONDS, read the hot
 *	set over and over and the warm set once every WARM_MS (each page
 *	once, at WARM_MS, 2 * WARM_MS, ...), so that a warm page's hint
 *	faults come about WARM_MS after the scan that armed them; print
 *	each set's share on FAST_NODE and the number of warm passes,
 *	verify every byte.  SECONDS from WARM_MS to under 2 * WARM_MS
 *	makes one warm pass.
 *   tierwork gauss MB SLOW_NODE FAST_NODE SECONDS WRITE_PCT SLOW_EXTRA_NS
 *	pmbench-like: place MB on SLOW_NODE, then for SECONDS access one
 *	word at a time in pages drawn from a Gaussian centred on the set's
 *	middle, standard deviation an eighth of it (95% of the accesses
 *	in its middle half), WRITE_PCT percent of them writes.  Every
 *	second each access is charged to its page's node: the score is
 *	the accesses per second of the second half, each access on
 *	SLOW_NODE costing SLOW_EXTRA_NS more (TCG runs all memory at one
 *	speed).  Prints the score, the second half's share of accesses on
 *	SLOW_NODE, the share of the hot set (the pages within one standard
 *	deviation of the centre) on FAST_NODE, and verifies every byte.
 *   tierwork hold MB NODE FILE
 *	place and fill MB on NODE, print "hold_ready", wait (up to 120 s)
 *	until FILE exists, then verify every byte and print where the
 *	pages are: the memory under it can be taken away meanwhile.
 *
 * Every set is made of base pages (MADV_NOHUGEPAGE), unless the
 * environment has TIERWORK_THP=1: then each set starts on a 2 MB
 * boundary and asks for transparent huge pages (MADV_HUGEPAGE).
 *
 * Output lines are "key value" pairs that the checks read.  Static, no
 * libnuma: the syscalls are called directly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	64
#define MPOL_BIND	2
#define MPOL_MF_MOVE	(1 << 1)

static long page_size;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define HUGE_SIZE	(2L << 20)

static char *alloc_mb(long mb)
{
	const char *thp = getenv("TIERWORK_THP");
	int huge = thp && !strcmp(thp, "1");
	char *p = mmap(NULL, (mb << 20) + HUGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	if (!huge) {
		/* Base pages: most checks count pages one by one. */
		madvise(p, mb << 20, MADV_NOHUGEPAGE);
		return p;
	}
	p = (char *)(((uintptr_t)p + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1));
	if (madvise(p, mb << 20, MADV_HUGEPAGE)) {
		perror("madvise");
		exit(2);
	}
	return p;
}

/* Each page gets a pattern that depends on its address and a seed. */
static void fill(char *p, long mb, unsigned int seed)
{
	long i, n = (mb << 20) / sizeof(uint64_t);
	uint64_t *w = (uint64_t *)p;

	for (i = 0; i < n; i++)
		w[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ seed;
}

static long verify(const char *p, long mb, unsigned int seed)
{
	long i, n = (mb << 20) / sizeof(uint64_t), bad = 0;
	const uint64_t *w = (const uint64_t *)p;

	for (i = 0; i < n; i++)
		if (w[i] != ((uint64_t)i * 0x9e3779b97f4a7c15ull ^ seed))
			bad++;
	return bad;
}

/* Count the pages of [p, p + mb) per node; status < 0 counts as -1. */
/* Each page's node: move_pages() status, a node or a negative errno. */
static void page_nodes(const char *p, long pages, int *status)
{
	long i, done, chunk = 4096;
	void **addrs = malloc(chunk * sizeof(void *));

	for (done = 0; done < pages; done += chunk) {
		long n = pages - done < chunk ? pages - done : chunk;

		for (i = 0; i < n; i++)
			addrs[i] = (void *)(p + (done + i) * page_size);
		if (syscall(SYS_move_pages, 0, n, addrs, NULL, status + done,
			    0)) {
			perror("move_pages");
			exit(2);
		}
	}
	free(addrs);
}

static void where(const char *p, long mb, long *per_node, long *unknown)
{
	long pages = (mb << 20) / page_size, i;
	int *status = malloc(pages * sizeof(int));

	memset(per_node, 0, MAX_NODES * sizeof(long));
	*unknown = 0;
	page_nodes(p, pages, status);
	for (i = 0; i < pages; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES)
			per_node[status[i]]++;
		else
			(*unknown)++;
	}
	free(status);
}

static void print_where(const char *name, const char *p, long mb)
{
	long per_node[MAX_NODES], unknown;
	int n;

	where(p, mb, per_node, &unknown);
	printf("%s_pages", name);
	for (n = 0; n < MAX_NODES; n++)
		if (per_node[n])
			printf(" node%d=%ld", n, per_node[n]);
	printf(" unknown=%ld\n", unknown);
}

static double share_on(const char *p, long mb, int node)
{
	long per_node[MAX_NODES], unknown;

	where(p, mb, per_node, &unknown);
	return (double)per_node[node] / ((mb << 20) / page_size);
}

/* Move every page of [p, p + mb) to @node. */
static void move_to(char *p, long mb, int node)
{
	unsigned long mask[MAX_NODES / 64] = { 0 };

	mask[node / 64] = 1ul << (node % 64);
	if (syscall(SYS_mbind, p, mb << 20, MPOL_BIND, mask, MAX_NODES,
		    MPOL_MF_MOVE)) {
		perror("mbind");
		exit(2);
	}
}

/*
 * Fill [p, p + mb) on @node, then let its pages go anywhere again:
 * NUMA balancing decides from there.
 */
static void place_for_balancing(char *p, long mb, unsigned int seed,
				int node)
{
	fill(p, mb, seed);
	move_to(p, mb, node);
	syscall(SYS_mbind, p, mb << 20, 0, NULL, 0, 0);
}

static int cmd_where(long mb, int node)
{
	char *p = alloc_mb(mb);

	move_to(p, mb, node);
	fill(p, mb, 1);
	print_where("placed", p, mb);
	return 0;
}

static int cmd_demote(long mb, int node)
{
	char *p = alloc_mb(mb);
	long bad;

	/* No fallback to other nodes: what does not fit must be demoted. */
	move_to(p, mb, node);
	fill(p, mb, 7);
	/* Touch it again so reclaim has cold and hot pages to tell apart. */
	fill(p, mb / 4, 7);
	bad = verify(p, mb, 7);
	print_where("demote", p, mb);
	printf("demote_bad_words %ld\n", bad);
	return bad ? 1 : 0;
}

/* Wait (up to 120 s) until @file exists. */
static void wait_for_file(const char *file)
{
	int tries;

	for (tries = 0; tries < 1200 && access(file, F_OK); tries++)
		usleep(100000);
}

static int cmd_promote(long hot_mb, long cold_mb, int slow, int fast,
		       int seconds, const char *pause_file)
{
	char *hot = alloc_mb(hot_mb), *cold = alloc_mb(cold_mb);
	double start, hot_share = 0, t, t90 = -1;
	volatile uint64_t sink = 0;
	long bad, i, tick;

	place_for_balancing(hot, hot_mb, 3, slow);
	place_for_balancing(cold, cold_mb, 5, slow);
	printf("promote_start hot_on_fast %.3f cold_on_fast %.3f\n",
	       share_on(hot, hot_mb, fast), share_on(cold, cold_mb, fast));

	/*
	 * The share is sampled every 0.1 s, for the time to 90% (t90);
	 * printed every second.
	 */
	start = now_s();
	for (t = 0, tick = 1; t < seconds; t = now_s() - start, tick++) {
		double next = tick * 0.1;

		while (now_s() - start < next)
			for (i = 0; i < (hot_mb << 20); i += page_size)
				sink += hot[i];
		hot_share = share_on(hot, hot_mb, fast);
		if (hot_share >= 0.9 && t90 < 0)
			t90 = now_s() - start;
		if (tick % 10 == 0 || t90 >= 0)
			printf("promote_t %.1f hot_on_fast %.3f\n", next,
			       hot_share);
		if (t90 >= 0)
			break;
	}
	printf("promote_seconds %.1f\n", now_s() - start);
	printf("promote_t90 %.2f\n", t90);
	printf("promote_hot_on_fast %.3f\n", hot_share);
	printf("promote_cold_on_fast %.3f\n", share_on(cold, cold_mb, fast));
	if (pause_file) {
		printf("promote_paused\n");
		wait_for_file(pause_file);
	}
	bad = verify(hot, hot_mb, 3) + verify(cold, cold_mb, 5);
	printf("promote_bad_words %ld\n", bad);
	return bad ? 1 : 0;
}

static int cmd_sweep(long mb, int node, int seconds, int pass_ms)
{
	long pages = (mb << 20) / page_size, i, bad, passes = 0;
	char *p = alloc_mb(mb);
	volatile uint64_t sink = 0;
	double start, pass;
	struct rusage ru;

	place_for_balancing(p, mb, 9, node);
	start = now_s();
	while (now_s() - start < seconds) {
		pass = now_s();
		passes++;
		for (i = 0; i < pages; i++) {
			sink += p[i * page_size];
			/* Every 64 pages, wait for their share of the pass. */
			if ((i & 63) == 63)
				while (now_s() - pass <
				       (double)(i + 1) / pages * pass_ms / 1000)
					usleep(1000);
		}
	}
	/*
	 * The reads and the time they took, whole passes: against a run
	 * without NUMA balancing, what the scans and hint faults cost.
	 */
	printf("sweep_pages_read %ld\n", passes * pages);
	printf("sweep_elapsed_ns %.0f\n", (now_s() - start) * 1e9);
	getrusage(RUSAGE_SELF, &ru);
	/* System time: the scans (task work) and the hint faults. */
	printf("sweep_stime_us %ld\n",
	       ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec);
	bad = verify(p, mb, 9);
	print_where("sweep", p, mb);
	printf("sweep_bad_words %ld\n", bad);
	return bad ? 1 : 0;
}

static void read_pages(const char *p, long mb)
{
	static volatile uint64_t sink;
	long i;

	for (i = 0; i < (mb << 20); i += page_size)
		sink += p[i];
}

static int cmd_warm(long hot_mb, long warm_mb, int slow, int fast,
		    int seconds, int warm_ms)
{
	char *hot = alloc_mb(hot_mb), *warm = alloc_mb(warm_mb);
	double start, next_warm;
	long bad, passes = 0;

	place_for_balancing(hot, hot_mb, 13, slow);
	place_for_balancing(warm, warm_mb, 15, slow);
	printf("warm_start hot_on_fast %.3f warm_on_fast %.3f\n",
	       share_on(hot, hot_mb, fast), share_on(warm, warm_mb, fast));

	start = now_s();
	next_warm = warm_ms / 1000.0;
	while (now_s() - start < seconds) {
		read_pages(hot, hot_mb);
		if (now_s() - start >= next_warm) {
			read_pages(warm, warm_mb);
			passes++;
			next_warm += warm_ms / 1000.0;
		}
	}
	printf("warm_passes %ld\n", passes);
	printf("warm_hot_on_fast %.3f\n", share_on(hot, hot_mb, fast));
	printf("warm_warm_on_fast %.3f\n", share_on(warm, warm_mb, fast));
	bad = verify(hot, hot_mb, 13) + verify(warm, warm_mb, 15);
	printf("warm_bad_words %ld\n", bad);
	return bad ? 1 : 0;
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * A page of PAGES drawn from a Gaussian centred on the middle, with
 * standard deviation SIGMA pages: the sum of twelve uniforms less six
 * (Irwin-Hall), redrawn when it falls outside.
 */
static long gauss_page(uint64_t *x, long pages, long sigma)
{
	for (;;) {
		int64_t sum = 0;
		long page;
		int i;

		for (i = 0; i < 3; i++) {
			uint64_t r = xorshift(x);

			sum += (r & 0xffff) + (r >> 16 & 0xffff) +
			       (r >> 32 & 0xffff) + (r >> 48);
		}
		/* (sum - 6 * 65535.5) / 65536 is N(0, 1) to a good degree. */
		page = pages / 2 + ((sum - 393213) * sigma) / 65536;
		if (page >= 0 && page < pages)
			return page;
	}
}

static int cmd_gauss(long mb, int slow, int fast, int seconds, int write_pct,
		     int slow_extra_ns)
{
	long pages = (mb << 20) / page_size, words = page_size / 8;
	long sigma = pages / 8, i, tick, bad, hot = 0, hot_fast = 0;
	uint64_t *p = (uint64_t *)alloc_mb(mb), x = 88172645463325252ULL;
	uint32_t *count = calloc(pages, sizeof(*count));
	int *node = malloc(pages * sizeof(int));
	double start, second, loop, late_loop = 0, late_n = 0, late_slow = 0;
	volatile uint64_t sink = 0;
	uint64_t total = 0;

	place_for_balancing((char *)p, mb, 11, slow);
	start = now_s();
	for (tick = 1; now_s() - start < seconds; tick++) {
		uint64_t n = 0, on_slow = 0;

		/*
		 * A second of accesses, timed without the sampling; then
		 * each access is charged to where its page is at the end
		 * of the second.
		 */
		second = now_s();
		while (now_s() - start < tick) {
			for (i = 0; i < 4096; i++) {
				long page = gauss_page(&x, pages, sigma);
				volatile uint64_t *w = p + page * words +
					(long)(x >> 40) % words;

				if ((long)(x >> 8) % 100 < write_pct)
					*w = *w;
				else
					sink += *w;
				count[page]++;
			}
			n += 4096;
		}
		loop = now_s() - second;
		page_nodes((char *)p, pages, node);
		for (i = 0; i < pages; i++) {
			if (node[i] == slow)
				on_slow += count[i];
			count[i] = 0;
		}
		total += n;
		printf("gauss_t %ld accesses %llu slow_share %.3f\n", tick,
		       (unsigned long long)n, n ? (double)on_slow / n : 0);
		/* The score is the second half's: the steady state. */
		if (tick > seconds / 2) {
			late_loop += loop;
			late_n += n;
			late_slow += on_slow;
		}
	}
	/* The hot set: the pages within a standard deviation of the centre. */
	for (i = pages / 2 - sigma; i < pages / 2 + sigma; i++) {
		hot++;
		hot_fast += node[i] == fast;
	}
	printf("gauss_accesses %llu\n", (unsigned long long)total);
	printf("gauss_slow_share %.4f\n", late_n ? late_slow / late_n : 0);
	printf("gauss_hot_on_fast %.4f\n", (double)hot_fast / hot);
	printf("gauss_score %.0f\n",
	       late_n / (late_loop + late_slow * slow_extra_ns / 1e9));
	bad = verify((char *)p, mb, 11);
	printf("gauss_bad_words %ld\n", bad);
	free(count);
	free(node);
	return bad ? 1 : 0;
}

static int cmd_hold(long mb, int node, const char *file)
{
	char *p = alloc_mb(mb);
	long bad;

	move_to(p, mb, node);
	fill(p, mb, 11);
	print_where("hold_placed", p, mb);
	printf("hold_ready\n");
	wait_for_file(file);
	bad = verify(p, mb, 11);
	print_where("hold_after", p, mb);
	printf("hold_bad_words %ld\n", bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc == 4 && !strcmp(argv[1], "where"))
		return cmd_where(atol(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "demote"))
		return cmd_demote(atol(argv[2]), atoi(argv[3]));
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "promote"))
		return cmd_promote(atol(argv[2]), atol(argv[3]), atoi(argv[4]),
				   atoi(argv[5]), atoi(argv[6]),
				   argc == 8 ? argv[7] : NULL);
	if (argc == 6 && !strcmp(argv[1], "sweep"))
		return cmd_sweep(atol(argv[2]), atoi(argv[3]), atoi(argv[4]),
				 atoi(argv[5]));
	if (argc == 8 && !strcmp(argv[1], "warm"))
		return cmd_warm(atol(argv[2]), atol(argv[3]), atoi(argv[4]),
				atoi(argv[5]), atoi(argv[6]), atoi(argv[7]));
	if (argc == 8 && !strcmp(argv[1], "gauss"))
		return cmd_gauss(atol(argv[2]), atoi(argv[3]), atoi(argv[4]),
				 atoi(argv[5]), atoi(argv[6]), atoi(argv[7]));
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return cmd_hold(atol(argv[2]), atoi(argv[3]), argv[4]);
	fprintf(stderr, "usage: see the comment at the top of tierwork.c\n");
	return 2;
}
