/*
 * Which purge method runs, decided from a target's facts alone: each
 * target kind (file, plain block device, NVMe with various capabilities,
 * SATA) and each refusal (unsupported method, --lbaf misuse).
 */
#include "check.h"

#include "device/purge.h"

static struct device_facts *plain_block(uint64_t discard_max)
{
	struct device_facts *f = calloc(1, sizeof *f);
	strcpy(f->path, "/dev/loop7");
	strcpy(f->block.transport, "loop");
	strcpy(f->block.disk, "loop7");
	f->block.discard_max_bytes = discard_max;
	return f;
}

static struct device_facts *nvme(uint16_t oacs, uint8_t fna, uint32_t sanicap)
{
	struct device_facts *f = plain_block(1u << 30);
	strcpy(f->path, "/dev/nvme0n1");
	strcpy(f->block.transport, "nvme");
	f->nvme = true;
	f->nvme_ctrl.oacs = oacs;
	f->nvme_ctrl.fna = fna;
	f->nvme_ctrl.sanicap = sanicap;
	f->nvme_ns.nlbaf = 3;
	f->nvme_ns.lbaf[0].data_size = 512;
	f->nvme_ns.lbaf[1].data_size = 4096;
	f->nvme_ns.lbaf[2].data_size = 0;	/* listed, not supported */
	return f;
}

static enum purge_method choose_ok(const struct device_facts *f,
				   enum purge_method req, int lbaf)
{
	enum purge_method m = PURGE_METHOD_COUNT;
	struct sb_err e;
	if (purge_choose(f, req, lbaf, &m, &e))
		CHECK_FAIL("purge_choose failed: %s", e.msg);
	return m;
}

/* Fails and the message contains `needle`. */
static void choose_fails(const struct device_facts *f, enum purge_method req,
			 int lbaf, const char *needle)
{
	enum purge_method m;
	struct sb_err e;
	if (purge_choose(f, req, lbaf, &m, &e) == 0)
		CHECK_FAIL("expected a refusal containing '%s', got %s", needle,
			   purge_method_name(m));
	else if (!strstr(e.msg, needle))
		CHECK_FAIL("message '%s' lacks '%s'", e.msg, needle);
}

TEST(purge_file_is_recreated)
{
	struct device_facts *f = plain_block(0);
	f->is_file = true;
	strcpy(f->path, "/tmp/x.img");
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_RECREATE_FILE);
	choose_fails(f, PURGE_DISCARD, -1, "regular file");
	choose_fails(f, PURGE_AUTO, 1, "--lbaf needs an NVMe namespace");
	free(f);
}

TEST(purge_plain_block_device)
{
	struct device_facts *f = plain_block(4096);
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_DISCARD);
	CHECK(choose_ok(f, PURGE_DISCARD, -1) == PURGE_DISCARD);
	choose_fails(f, PURGE_FORMAT, -1,
		     "does not support --method format; it supports: discard");
	choose_fails(f, PURGE_ATA_SECURE_ERASE, -1, "(loop)");
	choose_fails(f, PURGE_AUTO, 0, "--lbaf needs an NVMe namespace");
	f->block.discard_max_bytes = 0;
	choose_fails(f, PURGE_AUTO, -1, "supports no purge method");
	choose_fails(f, PURGE_DISCARD, -1, "it supports: none");
	free(f);
}

TEST(purge_nvme_full_featured)
{
	struct device_facts *f = nvme(NVME_OACS_FORMAT, NVME_FNA_CRYPTO,
				      NVME_SANICAP_BLOCK | NVME_SANICAP_CRYPTO);
	bool sup[PURGE_METHOD_COUNT];
	purge_supported(f, sup);
	CHECK(sup[PURGE_FORMAT] && sup[PURGE_FORMAT_CRYPTO]);
	CHECK(sup[PURGE_SANITIZE_BLOCK] && sup[PURGE_SANITIZE_CRYPTO]);
	CHECK(sup[PURGE_DISCARD] && !sup[PURGE_ATA_SECURE_ERASE]);
	CHECK(!sup[PURGE_RECREATE_FILE]);
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_FORMAT);
	CHECK(choose_ok(f, PURGE_SANITIZE_CRYPTO, -1) == PURGE_SANITIZE_CRYPTO);
	CHECK(choose_ok(f, PURGE_AUTO, 1) == PURGE_FORMAT);
	CHECK(choose_ok(f, PURGE_FORMAT_CRYPTO, 0) == PURGE_FORMAT_CRYPTO);
	choose_fails(f, PURGE_SANITIZE_BLOCK, 1, "only the format methods");
	choose_fails(f, PURGE_AUTO, 3, "LBA formats 0 to 2");
	choose_fails(f, PURGE_AUTO, 2, "not supported");
	choose_fails(f, PURGE_ATA_SECURE_ERASE, -1,
		     "it supports: format, format-crypto, sanitize-block, "
		     "sanitize-crypto, discard");
	free(f);
}

TEST(purge_nvme_partial_support)
{
	/* No Format NVM: auto falls to sanitize; --lbaf cannot be met. */
	struct device_facts *f = nvme(0, NVME_FNA_CRYPTO, NVME_SANICAP_BLOCK);
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_SANITIZE_BLOCK);
	choose_fails(f, PURGE_AUTO, 1, "--method format-crypto");
	free(f);
	/* Format without crypto erase, only crypto sanitize. */
	f = nvme(NVME_OACS_FORMAT, 0, NVME_SANICAP_CRYPTO);
	choose_fails(f, PURGE_FORMAT_CRYPTO, -1, "format-crypto");
	f->nvme_ctrl.oacs = 0;
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_SANITIZE_CRYPTO);
	f->nvme_ctrl.sanicap = 0;
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_DISCARD);
	free(f);
}

TEST(purge_partition_or_stack_only_discards)
{
	/* A partition or a device-mapper volume answers NVMe commands for the
	   whole namespace below it: only discard stays within the target. */
	struct device_facts *f = nvme(NVME_OACS_FORMAT, NVME_FNA_CRYPTO,
				      NVME_SANICAP_BLOCK);
	f->block.partition = true;
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_DISCARD);
	choose_fails(f, PURGE_FORMAT, -1, "it supports: discard");
	choose_fails(f, PURGE_AUTO, 1, "--method format-crypto");
	f->block.partition = false;
	strcpy(f->block.transport, "device-mapper");
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_DISCARD);
	choose_fails(f, PURGE_SANITIZE_BLOCK, -1, "it supports: discard");
	free(f);
	f = plain_block(1u << 20);
	f->ata = true;
	f->ata_id.security.supported = true;
	f->block.partition = true;
	strcpy(f->block.transport, "scsi");
	choose_fails(f, PURGE_ATA_SECURE_ERASE, -1, "it supports: discard");
	free(f);
}

TEST(purge_sata)
{
	struct device_facts *f = plain_block(1u << 20);
	strcpy(f->block.transport, "scsi");
	f->ata = true;
	f->ata_id.security.supported = true;
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_ATA_SECURE_ERASE);
	CHECK(choose_ok(f, PURGE_DISCARD, -1) == PURGE_DISCARD);
	choose_fails(f, PURGE_SANITIZE_BLOCK, -1,
		     "it supports: ata-secure-erase, discard");
	f->ata_id.security.supported = false;
	CHECK(choose_ok(f, PURGE_AUTO, -1) == PURGE_DISCARD);
	free(f);
}

TEST(purge_method_names)
{
	enum purge_method m;
	struct sb_err e;
	for (int i = 0; i < PURGE_RECREATE_FILE; i++) {
		CHECK(purge_method_parse(purge_method_name(i), &m, &e) == 0);
		CHECK(m == (enum purge_method)i);
	}
	CHECK(purge_method_parse("recreate-file", &m, &e) == -1);
	CHECK(purge_method_parse("secure-erase", &m, &e) == -1);
	CHECK(strstr(e.msg, "unknown purge method 'secure-erase'") != NULL);
	CHECK_EQ_STR(purge_method_name(PURGE_METHOD_COUNT), "?");
}

TEST(purge_run_needs_consent)
{
	struct purge_request r = { .path = "/nonexistent", .lbaf = -1 };
	struct purge_result res;
	struct sb_err e;
	CHECK(purge_run(&r, &res, &e) == -1);
	CHECK(strstr(e.msg, "--destroy-data") != NULL);
}

CHECK_MAIN("test_device_purge")
