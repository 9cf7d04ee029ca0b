/*
 * test_nvme_ident.c - NVMe namespace identity from a fixture sysfs tree
 * (tests/data/sysfs-nvme: a PCIe 512e drive, an NVMe/TCP 4Kn namespace and a
 * multipath-style namespace whose controller directory is absent).
 */
#include <errno.h>
#include <string.h>

#include "nvme/ident.h"
#include "bc_test.h"

#define ROOT BC_SRC_DIR "/tests/data/sysfs-nvme"

static void test_name_parse(void)
{
	unsigned c, n;
	bool g;

	CHECK(bc_nvme_name_parse("/dev/nvme0n1", &c, &n, &g) && c == 0 && n == 1 && !g);
	CHECK(bc_nvme_name_parse("/dev/ng12n3", &c, &n, &g) && c == 12 && n == 3 && g);
	CHECK(!bc_nvme_name_parse("/dev/nvme0n1p1", &c, &n, &g));
	CHECK(!bc_nvme_name_parse("/dev/nvme0c1n1", &c, &n, &g));
	CHECK(!bc_nvme_name_parse("/dev/nvme0", &c, &n, &g));
	CHECK(!bc_nvme_name_parse("/dev/sda", &c, &n, &g));
}

/* a partition's namespace: seed 002's lun was /dev/nvme5n1p1 */
static void test_partition_ns(void)
{
	char ns[64];
	unsigned part = 0;

	CHECK(bc_nvme_partition_ns("/dev/nvme5n1p1", ns, sizeof(ns), &part) == 0 &&
	      !strcmp(ns, "/dev/nvme5n1") && part == 1);
	CHECK(bc_nvme_partition_ns("nvme0n12p10", ns, sizeof(ns), &part) == 0 &&
	      !strcmp(ns, "nvme0n12") && part == 10);
	CHECK(bc_nvme_partition_ns("/dev/nvme0n1", ns, sizeof(ns), &part) == -ENODEV &&
	      !strcmp(ns, "/dev/nvme0n1"));
	CHECK(bc_nvme_partition_ns("/dev/nvme0n1p", ns, sizeof(ns), &part) == -ENODEV);
	CHECK(bc_nvme_partition_ns("/dev/nvme0n1p0", ns, sizeof(ns), &part) == -ENODEV);
	CHECK(bc_nvme_partition_ns("/dev/sda1", ns, sizeof(ns), &part) == -ENODEV);
	CHECK(bc_nvme_partition_ns("/dev/nvme0c1n1p1", ns, sizeof(ns), &part) == -ENODEV);
}

static void test_pcie_512e(void)
{
	struct bc_nvme_ident id;
	char k[16];
	cJSON *j;

	CHECK(!bc_nvme_ident_sysfs(ROOT, "/dev/nvme0n1", &id));
	CHECK(!strcmp(id.model, "Samsung SSD 990 PRO 2TB"));
	CHECK(!strcmp(id.serial, "S6Z2NJ0T123456"));
	CHECK(!strcmp(id.firmware, "4B2QJXD7"));
	CHECK(!strcmp(id.transport, "pcie"));
	CHECK(!strcmp(id.address, "0000:01:00.0"));
	CHECK(id.numa_node == 1 && id.nsid == 1);
	CHECK(id.size_bytes == 3907029168ull * 512);
	CHECK(id.lba_bytes == 512 && id.pbs == 4096);
	CHECK(!strcmp(bc_nvme_lba_kind(&id, k, sizeof(k)), "512e"));
	CHECK(!id.from_identify && id.nformats == 0);
	j = bc_nvme_ident_json(&id);
	CHECK(j && !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "lba_kind")), "512e"));
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(j, "source")), "sysfs"));
	cJSON_Delete(j);
}

static void test_generic_char_maps_to_block(void)
{
	struct bc_nvme_ident id;

	CHECK(!bc_nvme_ident_sysfs(ROOT, "/dev/ng0n1", &id));
	CHECK(!strcmp(id.block, "nvme0n1") && !strcmp(id.transport, "pcie"));
}

static void test_tcp_4kn(void)
{
	struct bc_nvme_ident id;
	char k[16];

	CHECK(!bc_nvme_ident_sysfs(ROOT, "/dev/nvme1n2", &id));
	CHECK(!strcmp(id.transport, "tcp"));
	CHECK(!strcmp(id.address, "traddr=192.0.2.10,trsvcid=4420,src_addr=192.0.2.1"));
	CHECK(!strcmp(id.subsysnqn, "nqn.2024-01.io.bench:vol1"));
	CHECK(id.numa_node == -1 && id.nsid == 2);
	CHECK(id.size_bytes == 2097152ull * 512 && id.lba_bytes == 4096);
	CHECK(!strcmp(bc_nvme_lba_kind(&id, k, sizeof(k)), "4Kn"));
}

static void test_multipath_falls_back_to_ns_device(void)
{
	struct bc_nvme_ident id;
	char k[16];

	CHECK(!bc_nvme_ident_sysfs(ROOT, "/dev/nvme3n1", &id));
	CHECK(!strcmp(id.model, "QEMU NVMe Ctrl") && !strcmp(id.serial, "deadbeef"));
	CHECK(!strcmp(id.firmware, "8.2.0") && id.transport[0] == '\0');
	CHECK(!strcmp(bc_nvme_lba_kind(&id, k, sizeof(k)), "512n"));
}

static void test_missing(void)
{
	struct bc_nvme_ident id;

	CHECK(bc_nvme_ident_sysfs(ROOT, "/dev/nvme9n1", &id) == -ENOENT);
	CHECK(bc_nvme_ident_sysfs(ROOT, "/dev/sda", &id) == -ENODEV);
	/* the ioctl path on something that is not an NVMe device */
	CHECK(bc_nvme_ident_ioctl("/dev/null", &id) < 0);
}

int main(void)
{
	test_name_parse();
	test_partition_ns();
	test_pcie_512e();
	test_generic_char_maps_to_block();
	test_tcp_4kn();
	test_multipath_falls_back_to_ns_device();
	test_missing();
	TEST_DONE();
}
