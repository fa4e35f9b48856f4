# SPDX-License-Identifier: GPL-2.0
# The emulated machines of the end-to-end boots, as QEMU arguments.
# Sourced by run-e2e.sh: machine_args NAME prints them.

machine_args() {
	case $1 in
	a)	# One CPU+DRAM node, one memory-only node HMAT reports as
		# twice the latency and half the bandwidth.
		echo "-machine pc,hmat=on -smp 2 -m 640M
		-object memory-backend-ram,id=m0,size=256M
		-object memory-backend-ram,id=m1,size=384M
		-numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
		-numa node,nodeid=1,memdev=m1,initiator=0
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=10
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=10G
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=20
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=5G"
		;;
	b)	# Seed 010: nodes 0-1 CPU+DRAM, 2-3 memory-only, its distances.
		echo "-machine pc -smp 2 -m 512M
		-object memory-backend-ram,id=m0,size=128M
		-object memory-backend-ram,id=m1,size=128M
		-object memory-backend-ram,id=m2,size=128M
		-object memory-backend-ram,id=m3,size=128M
		-numa node,nodeid=0,cpus=0,memdev=m0
		-numa node,nodeid=1,cpus=1,memdev=m1
		-numa node,nodeid=2,memdev=m2
		-numa node,nodeid=3,memdev=m3
		-numa dist,src=0,dst=1,val=20 -numa dist,src=0,dst=2,val=30
		-numa dist,src=0,dst=3,val=40 -numa dist,src=1,dst=2,val=40
		-numa dist,src=1,dst=3,val=30 -numa dist,src=2,dst=3,val=40"
		;;
	c)	# CPU+DRAM, two memory-only nodes (one to go up to 300, one
		# down to 100) and a CPU-only node.
		echo "-machine pc -smp 2 -m 640M
		-object memory-backend-ram,id=m0,size=256M
		-object memory-backend-ram,id=m1,size=128M
		-object memory-backend-ram,id=m2,size=256M
		-numa node,nodeid=0,cpus=0,memdev=m0
		-numa node,nodeid=1,memdev=m1
		-numa node,nodeid=2,memdev=m2
		-numa node,nodeid=3,cpus=1
		-numa dist,src=0,dst=1,val=15 -numa dist,src=0,dst=2,val=30
		-numa dist,src=0,dst=3,val=20 -numa dist,src=1,dst=2,val=30
		-numa dist,src=1,dst=3,val=20 -numa dist,src=2,dst=3,val=30"
		;;
	k|l)	# The KUnit suites as a module, at the e2e kernel's
		# NODES_SHIFT=10: the machine only needs to boot.
		echo "-machine pc -smp 2 -m 512M
		-object memory-backend-ram,id=m0,size=256M
		-object memory-backend-ram,id=m1,size=256M
		-numa node,nodeid=0,cpus=0-1,memdev=m0
		-numa node,nodeid=1,memdev=m1"
		;;
	d)	# A fast node big enough for the free-space bypass (more
		# than 1 GiB free above its watermark) and a small slow one.
		echo "-machine pc -smp 2 -m 1792M
		-object memory-backend-ram,id=m0,size=1536M
		-object memory-backend-ram,id=m1,size=256M
		-numa node,nodeid=0,cpus=0-1,memdev=m0
		-numa node,nodeid=1,memdev=m1"
		;;
	s)	# The sanitizer kernel's machine: a CPU+DRAM node, a slow
		# memory-only node (HMAT), and node 2, empty at boot, with
		# the same HMAT numbers, that memory is hot-added into
		# (QEMU gives the hotplug range to the last node).
		echo "-machine pc,hmat=on -smp 2 -m 640M,slots=2,maxmem=1G
		-object memory-backend-ram,id=m0,size=384M
		-object memory-backend-ram,id=m1,size=256M
		-numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
		-numa node,nodeid=1,memdev=m1,initiator=0
		-numa node,nodeid=2,initiator=0
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=10
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=10G
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=20
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=5G
		-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=access-latency,latency=20
		-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=access-bandwidth,bandwidth=5G"
		;;
	n)	# A CPU+DRAM node and emulated NVDIMMs in nodes 1 and 2,
		# which have no other memory: put in devdax mode and onlined
		# by dax/kmem in the guest.  The NFIT gives their proximity
		# domains.  The HMAT reports node 2 (twice DRAM's latency,
		# half its bandwidth) and not node 1: no performance data
		# for node 1's two NVDIMMs.
		echo "-machine pc,nvdimm=on,hmat=on -smp 2 -m 384M,slots=3,maxmem=2G
		-object memory-backend-ram,id=m0,size=384M
		-numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
		-numa node,nodeid=1,initiator=0
		-numa node,nodeid=2,initiator=0
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=10
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=10G
		-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=access-latency,latency=20
		-numa hmat-lb,initiator=0,target=2,hierarchy=memory,data-type=access-bandwidth,bandwidth=5G
		-object memory-backend-ram,id=nv0,size=512M
		-device nvdimm,id=nvdimm0,memdev=nv0,node=1
		-object memory-backend-ram,id=nv1,size=256M
		-device nvdimm,id=nvdimm1,memdev=nv1,node=2
		-object memory-backend-ram,id=nv2,size=256M
		-device nvdimm,id=nvdimm2,memdev=nv2,node=1"
		;;
	*)	return 1 ;;
	esac
}

# Machines whose checks ask the host for memory hotplug (qmp-hotplug.py).
machine_qmp() {
	[ "$1" = s ]
}

# Extra kernel command line per machine.
machine_cmdline() {
	case $1 in
	a) echo "default_memory_tier=401" ;;	# bad: must be ignored
	c) echo "default_memory_tier=250" ;;
	d) echo "default_memory_tier=abc" ;;	# bad: must be ignored
	# The slow benchmark suite is skipped, as make kunit does.
	k|l) echo "kunit.filter=speed>slow kunit.filter_action=skip" ;;
	# Warnings and worse on the console, the rest in dmesg only: a
	# thousand tier moves log two lines each.
	s) echo "kunit.filter=speed>slow kunit.filter_action=skip loglevel=5" ;;
	*) echo "" ;;
	esac
}
