/*
 * ATA parsers on pages built here from ACS-3 (IDENTIFY DEVICE data, table
 * 45: words 10-19 serial, 23-26 firmware, 27-46 model, 60-61 / 100-103
 * capacity, 75-77 SATA, 82-85 feature sets, 89-90 erase times, 106 and
 * 117-118 sector sizes, 128 security status, 169 TRIM, 217 rotation rate,
 * 255 integrity word) and the SMART READ DATA layout (ATA-8 / smartmontools:
 * 30 twelve-byte attribute entries from byte 2, checksum in byte 511).
 */
#include "check.h"

#include "device/ata.h"
#include "device/health.h"
#include "device/nvme.h"

#include <unistd.h>

/* ATA strings: two characters a word, the first in the high byte. */
static void set_string(uint16_t *w, unsigned first, unsigned nwords,
		       const char *s)
{
	size_t len = strlen(s);
	for (unsigned i = 0; i < nwords; i++) {
		unsigned char hi = 2 * i < len ? (unsigned char)s[2 * i] : ' ';
		unsigned char lo = 2 * i + 1 < len ? (unsigned char)s[2 * i + 1]
						   : ' ';
		w[first + i] = (uint16_t)(hi << 8 | lo);
	}
}

/* Little-endian bytes; with `checksum` word 255 gets A5h and the byte
   that makes the sector sum to zero. */
static void to_page(uint16_t *w, uint8_t *p, int checksum)
{
	if (checksum)
		w[255] = 0x00a5;
	for (int i = 0; i < 256; i++) {
		p[2 * i] = (uint8_t)w[i];
		p[2 * i + 1] = (uint8_t)(w[i] >> 8);
	}
	if (checksum) {
		uint8_t sum = 0;
		for (int i = 0; i < 511; i++)
			sum = (uint8_t)(sum + p[i]);
		p[511] = (uint8_t)(0x100 - sum);
	}
}

static void build_ssd(uint16_t *w)
{
	memset(w, 0, 512);
	w[0] = 0x0040;
	set_string(w, 10, 10, "      S5Y1NX0R123456");	/* right-justified */
	set_string(w, 23, 4, "SVT02B6Q");
	set_string(w, 27, 20, "Samsung SSD 870 EVO 1TB");
	w[60] = 0xffff;					/* 28-bit: maxed */
	w[61] = 0x0fff;
	w[75] = 31;					/* queue depth 32 */
	w[76] = 1u << 1 | 1u << 2 | 1u << 3 | 1u << 8;	/* Gen1-3, NCQ */
	w[77] = 3u << 1;				/* current Gen3 */
	w[82] = 1u << 0 | 1u << 1 | 1u << 5;		/* SMART, sec, WC */
	w[83] = 0x4000 | 1u << 10;			/* valid, 48-bit */
	w[85] = 1u << 0 | 1u << 5;			/* enabled */
	w[89] = 2;					/* erase: 4 min */
	w[90] = 0x8000 | 10;				/* extended: 20 min */
	uint64_t lba = 1953525168ull;
	w[100] = (uint16_t)lba;
	w[101] = (uint16_t)(lba >> 16);
	w[102] = (uint16_t)(lba >> 32);
	w[106] = 0x4000 | 1u << 13 | 3;			/* 8 logical/physical */
	w[128] = 1u << 0 | 1u << 3 | 1u << 5;		/* sup, frozen, enh */
	w[169] = 1;					/* TRIM */
	w[217] = 1;					/* non-rotating */
}

TEST(ata_identify_ssd)
{
	uint16_t w[256];
	uint8_t p[ATA_SECTOR];
	struct ata_identify id;
	struct sb_err e;
	build_ssd(w);
	to_page(w, p, 1);
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == 0);
	CHECK_EQ_STR(id.serial, "S5Y1NX0R123456");
	CHECK_EQ_STR(id.firmware, "SVT02B6Q");
	CHECK_EQ_STR(id.model, "Samsung SSD 870 EVO 1TB");
	CHECK(id.lba48);
	CHECK_EQ_U64(id.sectors, 1953525168ull);
	CHECK_EQ_U64(id.logical_sector_size, 512);
	CHECK_EQ_U64(id.physical_sector_size, 4096);
	CHECK_NEAR(id.sata_speed_max_gbps, 6.0, 1e-9);
	CHECK_NEAR(id.sata_speed_current_gbps, 6.0, 1e-9);
	CHECK(id.ncq);
	CHECK_EQ_U64(id.queue_depth, 32);
	CHECK(id.smart_supported && id.smart_enabled);
	CHECK(id.write_cache_supported && id.write_cache_enabled);
	CHECK(id.trim);
	CHECK_EQ_U64(id.rotation_rate, 1);
	CHECK(id.checksum_present);
	CHECK(id.security.supported);
	CHECK(id.security.frozen);
	CHECK(!id.security.enabled && !id.security.locked);
	CHECK(id.security.enhanced_erase_supported);
	CHECK(!id.security.level_maximum);
	CHECK_EQ_U64(id.security.erase_minutes, 4);
	CHECK_EQ_U64(id.security.enhanced_erase_minutes, 20);
}

TEST(ata_identify_hdd_4k_native)
{
	uint16_t w[256];
	uint8_t p[ATA_SECTOR];
	struct ata_identify id;
	struct sb_err e;
	memset(w, 0, sizeof w);
	set_string(w, 10, 10, "ZA1234AB");
	set_string(w, 27, 20, "ST4000NM0035");
	w[60] = 0x5678;					/* 28-bit only */
	w[61] = 0x0012;
	w[76] = 1u << 1 | 1u << 2;			/* Gen2 max, no NCQ */
	w[77] = 1u << 1;				/* running Gen1 */
	w[82] = 1u << 0;
	w[83] = 0xc000;					/* invalid word */
	w[85] = 1u << 0;
	w[106] = 0x4000 | 1u << 12;			/* long logical sector */
	w[117] = 2048;					/* words: 4096 bytes */
	w[118] = 0;
	w[128] = 1u << 0 | 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8;
	w[217] = 7200;
	to_page(w, p, 0);				/* no integrity word */
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == 0);
	CHECK(!id.checksum_present);
	CHECK(!id.lba48);
	CHECK_EQ_U64(id.sectors, 0x125678);
	CHECK_EQ_U64(id.logical_sector_size, 4096);
	CHECK_EQ_U64(id.physical_sector_size, 4096);
	CHECK_NEAR(id.sata_speed_max_gbps, 3.0, 1e-9);
	CHECK_NEAR(id.sata_speed_current_gbps, 1.5, 1e-9);
	CHECK(!id.ncq);
	CHECK_EQ_U64(id.queue_depth, 0);
	/* Word 83 invalid: its feature words are not trusted. */
	CHECK(!id.smart_supported);
	CHECK(!id.trim);
	CHECK_EQ_U64(id.rotation_rate, 7200);
	CHECK(id.security.enabled && id.security.locked);
	CHECK(id.security.count_expired && id.security.level_maximum);
	CHECK(!id.security.frozen);
	CHECK_EQ_U64(id.security.erase_minutes, 0);
	/* No security feature set: nothing else in word 128 counts. */
	w[128] = 1u << 3;
	w[76] = 0xffff;					/* "not reported" */
	w[217] = 0x0200;				/* reserved value */
	to_page(w, p, 0);
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == 0);
	CHECK(!id.security.supported && !id.security.frozen);
	CHECK_NEAR(id.sata_speed_max_gbps, 0.0, 0);
	CHECK_EQ_U64(id.rotation_rate, 0);
}

TEST(ata_identify_rejects)
{
	uint16_t w[256];
	uint8_t p[ATA_SECTOR];
	struct ata_identify id;
	struct sb_err e;
	build_ssd(w);
	to_page(w, p, 1);
	p[100] ^= 1;					/* corrupt a byte */
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == -1);
	CHECK(strstr(e.msg, "checksum") != NULL);
	build_ssd(w);
	w[0] = 0x8580;					/* ATAPI */
	to_page(w, p, 1);
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == -1);
	CHECK(strstr(e.msg, "ATAPI") != NULL);
	memset(w, 0, sizeof w);
	to_page(w, p, 0);
	CHECK(ata_parse_identify(p, sizeof p, &id, &e) == -1);
	CHECK(strstr(e.msg, "empty") != NULL);
	CHECK(ata_parse_identify(p, 256, &id, &e) == -1);
}

static void put_attr(uint8_t *p, int slot, uint8_t id, uint16_t flags,
		     uint8_t value, uint8_t worst, uint64_t raw)
{
	uint8_t *a = p + 2 + 12 * slot;
	a[0] = id;
	a[1] = (uint8_t)flags;
	a[2] = (uint8_t)(flags >> 8);
	a[3] = value;
	a[4] = worst;
	for (int i = 0; i < 6; i++)
		a[5 + i] = (uint8_t)(raw >> (8 * i));
	a[11] = 0xee;					/* reserved byte */
}

static void seal_smart(uint8_t *p)
{
	uint8_t sum = 0;
	for (int i = 0; i < 511; i++)
		sum = (uint8_t)(sum + p[i]);
	p[511] = (uint8_t)(0x100 - sum);
}

static void build_smart(uint8_t *p)
{
	memset(p, 0, ATA_SECTOR);
	p[0] = 0x01;					/* revision */
	put_attr(p, 0, 5, 0x0033, 100, 100, 0);
	/* Hours in the low 32 bits, vendor minutes above. */
	put_attr(p, 1, 9, 0x0032, 95, 95, 0x002a000004d2ull);
	put_attr(p, 2, 12, 0x0032, 99, 99, 321);
	/* slot 3 empty: ID 0 */
	put_attr(p, 4, 177, 0x0013, 97, 97, 12);
	put_attr(p, 5, 187, 0x0032, 100, 100, 4);
	put_attr(p, 6, 194, 0x0022, 67, 51, 0x0046001a0021ull);
	put_attr(p, 7, 241, 0x0032, 99, 99, 1000000);
	put_attr(p, 8, 250, 0x0032, 100, 100, 0xffffffffffffull);
	seal_smart(p);
}

TEST(ata_smart_attributes)
{
	uint8_t p[ATA_SECTOR];
	struct ata_smart s;
	struct sb_err e;
	double t = 0;
	build_smart(p);
	CHECK(ata_parse_smart(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.count, 8);
	const struct ata_smart_attr *a = ata_smart_find(&s, 194);
	CHECK(a != NULL);
	if (a) {
		CHECK_EQ_U64(a->flags, 0x22);
		CHECK_EQ_U64(a->value, 67);
		CHECK_EQ_U64(a->worst, 51);
		CHECK_EQ_U64(a->raw, 0x0046001a0021ull);
	}
	a = ata_smart_find(&s, 250);
	CHECK(a && a->raw == 0xffffffffffffull);	/* 48 bits, no more */
	CHECK(ata_smart_find(&s, 1) == NULL);
	CHECK(ata_smart_temperature(&s, &t));
	CHECK_NEAR(t, 33, 0);
	CHECK_EQ_STR(ata_smart_attr_name(194), "temperature");
	CHECK(ata_smart_attr_name(250) == NULL);
	p[40] ^= 0x10;
	CHECK(ata_parse_smart(p, sizeof p, &s, &e) == -1);
	CHECK(strstr(e.msg, "checksum") != NULL);
	CHECK(ata_parse_smart(p, 100, &s, &e) == -1);
}

TEST(ata_smart_temperature_fallbacks)
{
	uint8_t p[ATA_SECTOR];
	struct ata_smart s;
	struct sb_err e;
	double t = 0;
	memset(p, 0, sizeof p);
	put_attr(p, 0, 190, 0x0022, 60, 40, 40);	/* airflow only */
	seal_smart(p);
	CHECK(ata_parse_smart(p, sizeof p, &s, &e) == 0);
	CHECK(ata_smart_temperature(&s, &t));
	CHECK_NEAR(t, 40, 0);
	memset(p, 0, sizeof p);
	put_attr(p, 0, 9, 0x0032, 100, 100, 5);
	seal_smart(p);
	CHECK(ata_parse_smart(p, sizeof p, &s, &e) == 0);
	CHECK(!ata_smart_temperature(&s, &t));
}

TEST(ata_health_summary)
{
	uint8_t p[ATA_SECTOR];
	struct ata_smart s;
	struct device_health h;
	struct sb_err e;
	build_smart(p);
	CHECK(ata_parse_smart(p, sizeof p, &s, &e) == 0);
	device_health_from_ata(&s, 512, &h);
	CHECK_NEAR(h.temperature_c, 33, 0);
	CHECK_NEAR(h.power_on_hours, 1234, 0);
	CHECK_NEAR(h.power_cycles, 321, 0);
	CHECK_NEAR(h.media_errors, 4, 0);
	CHECK_NEAR(h.percent_used, 3, 1e-12);		/* 100 - 97 (177) */
	CHECK_NEAR(h.data_written_bytes, 512e6, 0);
	CHECK(isnan(h.data_read_bytes));
	CHECK(isnan(h.media_written_bytes));
	CHECK(isnan(h.unsafe_shutdowns));
}

/* Sense data per SPC-4 (fixed 70h, descriptor 72h) and SAT-3 (ATA Status
   Return descriptor 09h: status in byte 13 of the descriptor). */
TEST(ata_sense_outcomes)
{
	struct sb_err e;
	uint8_t d[22];
	memset(d, 0, sizeof d);
	d[0] = 0x72;
	d[1] = 0x01;				/* recovered error */
	d[7] = 14;				/* additional length */
	d[8] = 0x09;				/* ATA Status Return */
	d[9] = 0x0c;
	d[8 + 13] = 0x50;			/* DRDY | DSC, no ERR */
	CHECK(ata_check_sense("CMD", d, sizeof d, &e) == 0);
	d[8 + 13] = 0x51;			/* ERR */
	d[1] = 0x0b;				/* aborted command */
	CHECK(ata_check_sense("CMD", d, sizeof d, &e) == -1);
	CHECK(strstr(e.msg, "aborted command") != NULL);
	CHECK(strstr(e.msg, "ATA error bit") != NULL);
	d[1] = 0x01;				/* "recovered", but ERR */
	CHECK(ata_check_sense("CMD", d, sizeof d, &e) == -1);

	uint8_t f[18];
	memset(f, 0, sizeof f);
	f[0] = 0x70;
	f[2] = 0x05;				/* illegal request */
	f[7] = 10;
	f[12] = 0x20;				/* invalid command opcode */
	CHECK(ata_check_sense("IDENTIFY DEVICE", f, sizeof f, &e) == -1);
	CHECK(strstr(e.msg, "not ATA") != NULL);
	CHECK(strstr(e.msg, "asc 20h/00h") != NULL);
	f[2] = 0x04;
	CHECK(ata_check_sense("X", f, sizeof f, &e) == -1);
	CHECK(strstr(e.msg, "hardware error") != NULL);
	CHECK(ata_check_sense("X", f, 2, &e) == -1);
	CHECK(strstr(e.msg, "without sense data") != NULL);
}

/* On something that is not a SCSI device the ioctls say so cleanly. */
TEST(ata_and_nvme_on_a_file)
{
	char path[] = "/tmp/ssdbench-ata.XXXXXX";
	int fd = mkstemp(path);
	uint8_t page[NVME_IDENTIFY_SIZE];
	uint32_t nsid;
	struct sb_err e;
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK(ata_identify(fd, page, &e) == -1);
	CHECK(strstr(e.msg, "not ATA") != NULL);
	CHECK(nvme_get_nsid(fd, &nsid, &e) == -1);
	CHECK(strstr(e.msg, "not NVMe") != NULL);
	CHECK(nvme_identify(fd, 0, NVME_CNS_CTRL, page, &e) == -1);
	CHECK(strstr(e.msg, "Identify Controller") != NULL);
	close(fd);
}

CHECK_MAIN("test_device_ata")
