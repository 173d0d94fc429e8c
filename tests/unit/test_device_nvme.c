/*
 * NVMe page parsers on pages built here from the NVM Express Base
 * Specification 2.0 (Identify Controller fig. 275, Identify Namespace
 * fig. 280 / LBA Format fig. 281, Power State Descriptor fig. 276,
 * SMART / Health log fig. 207, Sanitize Status log fig. 287) and the OCP
 * Datacenter NVMe SSD Specification 2.0 (SMART / Health Information
 * Extended, log C0h).  Offsets are written out as in the spec tables.
 */
#include "check.h"

#include "device/nvme.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ASCII, space padded to `len`, as Identify stores SN / MN / FR. */
static void put_ascii(uint8_t *p, size_t len, const char *s)
{
	memset(p, ' ', len);
	memcpy(p, s, strlen(s));
}

static void build_ctrl(uint8_t *p)
{
	memset(p, 0, NVME_IDENTIFY_SIZE);
	put16(p + 0, 0x144d);			/* VID */
	put16(p + 2, 0x144e);			/* SSVID */
	put_ascii(p + 4, 20, "S69ENX0T123456");	/* SN */
	put_ascii(p + 24, 40, "Samsung SSD 990 PRO 2TB");	/* MN */
	put_ascii(p + 64, 8, "4B2QJXD7");	/* FR */
	p[77] = 9;				/* MDTS */
	put32(p + 80, 0x00020000);		/* VER 2.0.0 */
	put16(p + 256, 0x0017);			/* OACS: sec, fmt, fw, selftest */
	p[261] = 0x0f;				/* LPA */
	p[263] = 2;				/* NPSS: three states */
	put16(p + 266, 355);			/* WCTEMP, K */
	put16(p + 268, 358);			/* CCTEMP, K */
	put64(p + 280, 2000398934016ull);	/* TNVMCAP low */
	put32(p + 328, 0x00000003);		/* SANICAP: crypto + block */
	put32(p + 516, 1);			/* NN */
	put16(p + 520, 0x005f);			/* ONCS incl. DSM */
	p[524] = 0x04;				/* FNA: crypto erase */
	p[525] = 0x01;				/* VWC present */

	uint8_t *ps = p + 2048;
	put16(ps + 0, 850);			/* PS0: 8.50 W, scale 0.01 */
	ps += 32;
	put16(ps + 0, 30000);			/* PS1: MXPS, 0.0001 W units */
	ps[3] = 0x01;
	put32(ps + 4, 100);
	put32(ps + 8, 200);
	put16(ps + 16, 500);			/* IDLP, IPS 01b: 0.05 W */
	ps[18] = 0x40;
	put16(ps + 20, 250);			/* ACTP, APS 10b: 2.50 W */
	ps[22] = 0x80 | 0x02;			/* APW bits, must be ignored */
	ps += 32;
	put16(ps + 0, 500);			/* PS2: non-operational */
	ps[3] = 0x02;
	put32(ps + 4, 2000);
	put32(ps + 8, 12000);
}

TEST(nvme_ctrl_fields)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ctrl_info c;
	struct sb_err e;
	build_ctrl(p);
	CHECK(nvme_parse_id_ctrl(p, sizeof p, &c, &e) == 0);
	CHECK_EQ_U64(c.vid, 0x144d);
	CHECK_EQ_U64(c.ssvid, 0x144e);
	CHECK_EQ_STR(c.serial, "S69ENX0T123456");
	CHECK_EQ_STR(c.model, "Samsung SSD 990 PRO 2TB");
	CHECK_EQ_STR(c.firmware, "4B2QJXD7");
	CHECK_EQ_U64(c.mdts, 9);
	CHECK_EQ_U64(c.version, 0x00020000);
	CHECK(c.oacs & NVME_OACS_FORMAT);
	CHECK(c.oacs & NVME_OACS_SECURITY);
	CHECK(!(c.oacs & NVME_OACS_NS_MGMT));
	CHECK_EQ_U64(c.wctemp_k, 355);
	CHECK_EQ_U64(c.cctemp_k, 358);
	CHECK_EQ_U64(c.tnvmcap, 2000398934016ull);
	CHECK_EQ_U64(c.unvmcap, 0);
	CHECK_EQ_U64(c.sanicap, 3);
	CHECK_EQ_U64(c.nn, 1);
	CHECK(c.oncs & NVME_ONCS_DSM);
	CHECK(c.fna & NVME_FNA_CRYPTO);
	CHECK(!(c.fna & NVME_FNA_FORMAT_ALL));
	CHECK(c.vwc_present);
	CHECK_EQ_U64(c.npower_states, 3);
}

TEST(nvme_ctrl_power_states)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ctrl_info c;
	struct sb_err e;
	build_ctrl(p);
	CHECK(nvme_parse_id_ctrl(p, sizeof p, &c, &e) == 0);
	CHECK_NEAR(c.ps[0].max_power_w, 8.5, 1e-9);
	CHECK(c.ps[0].idle_power_w < 0);	/* IPS 00b: not reported */
	CHECK(c.ps[0].active_power_w < 0);
	CHECK(!c.ps[0].non_operational);
	CHECK_NEAR(c.ps[1].max_power_w, 3.0, 1e-9);
	CHECK_NEAR(c.ps[1].idle_power_w, 0.05, 1e-9);
	CHECK_NEAR(c.ps[1].active_power_w, 2.5, 1e-9);
	CHECK_EQ_U64(c.ps[1].entry_latency_us, 100);
	CHECK_EQ_U64(c.ps[1].exit_latency_us, 200);
	CHECK(c.ps[2].non_operational);
	CHECK_NEAR(c.ps[2].max_power_w, 5.0, 1e-9);
	CHECK_EQ_U64(c.ps[2].exit_latency_us, 12000);
}

TEST(nvme_ctrl_strings_and_limits)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ctrl_info c;
	struct sb_err e;
	build_ctrl(p);
	p[24 + 3] = 0x07;			/* a control byte in MN */
	p[263] = 31;				/* NPSS: all 32 states */
	put64(p + 288, 1);			/* TNVMCAP beyond 2^64 */
	p[524] = 0x03;
	CHECK(nvme_parse_id_ctrl(p, sizeof p, &c, &e) == 0);
	CHECK_EQ_STR(c.model, "Sam?ung SSD 990 PRO 2TB");
	CHECK_EQ_U64(c.npower_states, 32);
	CHECK_EQ_U64(c.tnvmcap, UINT64_MAX);
	CHECK(c.fna & NVME_FNA_FORMAT_ALL);
	CHECK(!(c.fna & NVME_FNA_CRYPTO));
}

TEST(nvme_ctrl_rejects_bad_pages)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ctrl_info c;
	struct sb_err e;
	build_ctrl(p);
	CHECK(nvme_parse_id_ctrl(p, 512, &c, &e) == -1);
	CHECK(strstr(e.msg, "need 4096") != NULL);
	memset(p, 0, sizeof p);
	CHECK(nvme_parse_id_ctrl(p, sizeof p, &c, &e) == -1);
	CHECK(strstr(e.msg, "empty") != NULL);
}

/* LBA Format: MS bits 15:0, LBADS bits 23:16, RP bits 25:24. */
static uint32_t lbaf(unsigned ms, unsigned lbads, unsigned rp)
{
	return ms | lbads << 16 | rp << 24;
}

static void build_ns(uint8_t *p, unsigned nformats, uint8_t flbas)
{
	memset(p, 0, NVME_IDENTIFY_SIZE);
	put64(p + 0, 3907029168ull);		/* NSZE */
	put64(p + 8, 3907029168ull);		/* NCAP */
	put64(p + 16, 1000);			/* NUSE */
	p[25] = (uint8_t)(nformats - 1);	/* NLBAF, 0-based */
	p[26] = flbas;
	put32(p + 128, lbaf(0, 9, 2));		/* 512 + 0, good */
	put32(p + 132, lbaf(0, 12, 0));		/* 4096 + 0, best */
	put32(p + 136, lbaf(8, 9, 3));		/* 512 + 8, degraded */
	put32(p + 140, lbaf(0, 0, 0));		/* not supported */
}

TEST(nvme_ns_formats)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ns_info ns;
	struct sb_err e;
	build_ns(p, 4, 0x01);
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == 0);
	CHECK_EQ_U64(ns.nsze, 3907029168ull);
	CHECK_EQ_U64(ns.nuse, 1000);
	CHECK_EQ_U64(ns.nlbaf, 4);
	CHECK_EQ_U64(ns.current_lbaf, 1);
	CHECK(!ns.metadata_extended);
	CHECK_EQ_U64(ns.lbaf[0].data_size, 512);
	CHECK_EQ_U64(ns.lbaf[0].rel_perf, 2);
	CHECK_EQ_U64(ns.lbaf[1].data_size, 4096);
	CHECK_EQ_U64(ns.lbaf[1].rel_perf, 0);
	CHECK_EQ_U64(ns.lbaf[2].data_size, 512);
	CHECK_EQ_U64(ns.lbaf[2].metadata_size, 8);
	CHECK_EQ_STR(nvme_rel_perf_name(ns.lbaf[2].rel_perf), "degraded");
	CHECK_EQ_U64(ns.lbaf[3].data_size, 0);
}

TEST(nvme_ns_high_format_index)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ns_info ns;
	struct sb_err e;
	/* With more than 16 formats FLBAS bits 6:5 extend the index:
	   0x31 = extended metadata (bit 4), low 1, high 01b -> 17. */
	build_ns(p, 20, 0x31);
	put32(p + 128 + 4 * 17, lbaf(64, 12, 1));	/* 4096 + 64 */
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == 0);
	CHECK_EQ_U64(ns.current_lbaf, 17);
	CHECK(ns.metadata_extended);
	CHECK_EQ_U64(ns.lbaf[17].data_size, 4096);
	CHECK_EQ_U64(ns.lbaf[17].metadata_size, 64);
	CHECK_EQ_STR(nvme_rel_perf_name(ns.lbaf[17].rel_perf), "better");
	/* With 16 or fewer the same bits are reserved and ignored. */
	build_ns(p, 4, 0x22);
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == 0);
	CHECK_EQ_U64(ns.current_lbaf, 2);
}

TEST(nvme_ns_rejects_bad_pages)
{
	uint8_t p[NVME_IDENTIFY_SIZE];
	struct nvme_ns_info ns;
	struct sb_err e;
	build_ns(p, 4, 0);
	put64(p, 0);
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == -1);
	CHECK(strstr(e.msg, "inactive") != NULL);
	build_ns(p, 2, 0x03);			/* index 3 of 2 formats */
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == -1);
	CHECK(strstr(e.msg, "only 2 formats") != NULL);
	build_ns(p, 4, 0x03);			/* in use but LBADS 0 */
	CHECK(nvme_parse_id_ns(p, sizeof p, &ns, &e) == -1);
	CHECK(strstr(e.msg, "no valid data size") != NULL);
	build_ns(p, 4, 0);
	CHECK(nvme_parse_id_ns(p, 100, &ns, &e) == -1);
}

static void build_smart(uint8_t *p)
{
	memset(p, 0, NVME_LOG_SIZE);
	p[0] = 0x04;				/* critical warning: reliability */
	put16(p + 1, 321);			/* composite temperature, K */
	p[3] = 100;
	p[4] = 10;
	p[5] = 3;				/* percentage used */
	put64(p + 32, 12345678);		/* data units read */
	put64(p + 48, 23456789);		/* data units written */
	put64(p + 64, 111);
	put64(p + 80, 222);
	put64(p + 96, 333);			/* busy minutes */
	put64(p + 112, 44);			/* power cycles */
	put64(p + 128, 1234);			/* power-on hours */
	put64(p + 144, 7);			/* unsafe shutdowns */
	put64(p + 160, 2);			/* media errors */
	put64(p + 176, 9);
	put32(p + 192, 15);			/* warning temp minutes */
	put32(p + 196, 1);
	put16(p + 200, 320);			/* sensor 1 */
	put16(p + 202, 330);			/* sensor 2; 3..8 absent */
}

TEST(nvme_smart_fields)
{
	uint8_t p[NVME_LOG_SIZE];
	struct nvme_smart s;
	struct sb_err e;
	build_smart(p);
	CHECK(nvme_parse_smart(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.critical_warning, 4);
	CHECK_EQ_U64(s.temperature_k, 321);
	CHECK_EQ_U64(s.available_spare, 100);
	CHECK_EQ_U64(s.spare_threshold, 10);
	CHECK_EQ_U64(s.percent_used, 3);
	CHECK_EQ_U64(s.data_units_read, 12345678);
	CHECK_EQ_U64(s.data_units_written, 23456789);
	CHECK_EQ_U64(s.host_read_cmds, 111);
	CHECK_EQ_U64(s.host_write_cmds, 222);
	CHECK_EQ_U64(s.busy_minutes, 333);
	CHECK_EQ_U64(s.power_cycles, 44);
	CHECK_EQ_U64(s.power_on_hours, 1234);
	CHECK_EQ_U64(s.unsafe_shutdowns, 7);
	CHECK_EQ_U64(s.media_errors, 2);
	CHECK_EQ_U64(s.error_log_entries, 9);
	CHECK_EQ_U64(s.warning_temp_minutes, 15);
	CHECK_EQ_U64(s.critical_temp_minutes, 1);
	CHECK_EQ_U64(s.sensor_k[0], 320);
	CHECK_EQ_U64(s.sensor_k[1], 330);
	CHECK_EQ_U64(s.sensor_k[2], 0);
	/* A 128-bit counter past 2^64 saturates instead of wrapping. */
	put64(p + 56, 1);
	CHECK(nvme_parse_smart(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.data_units_written, UINT64_MAX);
	CHECK(nvme_parse_smart(p, 256, &s, &e) == -1);
	CHECK_EQ_U64(nvme_data_units_bytes(2), 1024000);
	CHECK_EQ_U64(nvme_data_units_bytes(UINT64_MAX / 1000), UINT64_MAX);
}

static const uint8_t ocp_guid[16] = {
	0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
	0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf,
};

TEST(nvme_ocp_log)
{
	uint8_t p[NVME_LOG_SIZE];
	struct nvme_ocp_smart o;
	struct sb_err e;
	memset(p, 0, sizeof p);
	put64(p + 0, 30000000000000ull);	/* physical media written */
	put64(p + 16, 5000000000000ull);	/* physical media read */
	put64(p + 32, 3);			/* bad user NAND, raw */
	put16(p + 38, 99);			/*   normalized, not the count */
	put64(p + 40, 1);
	put16(p + 46, 100);
	p[96] = 7;				/* throttling events */
	p[97] = 25;				/* current throttling, % */
	put16(p + 494, 3);			/* log page version */
	memcpy(p + 496, ocp_guid, 16);
	CHECK(nvme_parse_ocp_smart(p, sizeof p, &o, &e) == 0);
	CHECK_EQ_U64(o.media_bytes_written, 30000000000000ull);
	CHECK_EQ_U64(o.media_bytes_read, 5000000000000ull);
	CHECK_EQ_U64(o.bad_user_blocks, 3);
	CHECK_EQ_U64(o.bad_system_blocks, 1);
	CHECK_EQ_U64(o.throttle_events, 7);
	CHECK_EQ_U64(o.throttle_status, 25);
	CHECK_EQ_U64(o.log_version, 3);
	p[511] ^= 0xff;				/* a vendor page at C0h */
	CHECK(nvme_parse_ocp_smart(p, sizeof p, &o, &e) == -1);
	CHECK(strstr(e.msg, "GUID") != NULL);
}

TEST(nvme_sanitize_status)
{
	uint8_t p[NVME_LOG_SIZE];
	struct nvme_sanitize_status s;
	struct sb_err e;
	memset(p, 0, sizeof p);
	put16(p + 0, 32768);			/* SPROG: half */
	put16(p + 2, 2);			/* SSTAT: in progress */
	put32(p + 12, 600);			/* block erase estimate, s */
	put32(p + 16, 0xffffffff);		/* crypto: no estimate */
	CHECK(nvme_parse_sanitize_status(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.state, 2);
	CHECK_NEAR(s.progress, 0.5, 1e-9);
	CHECK_EQ_U64(s.est_block_s, 600);
	CHECK_EQ_U64(s.est_crypto_s, 0xffffffff);
	/* Done: SPROG is stale by then, progress is complete anyway.
	   Bits 15:3 of SSTAT (global data erased, passes) are masked. */
	put16(p + 2, 0x0101);
	CHECK(nvme_parse_sanitize_status(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.state, 1);
	CHECK_NEAR(s.progress, 1.0, 1e-12);
	put16(p + 2, 3);
	CHECK(nvme_parse_sanitize_status(p, sizeof p, &s, &e) == 0);
	CHECK_EQ_U64(s.state, 3);
	CHECK(nvme_parse_sanitize_status(p, 8, &s, &e) == -1);
}

TEST(nvme_version_strings)
{
	char buf[32];
	nvme_version_string(0x00010400, buf, sizeof buf);
	CHECK_EQ_STR(buf, "1.4.0");
	nvme_version_string(0x00020001, buf, sizeof buf);
	CHECK_EQ_STR(buf, "2.0.1");
	nvme_version_string(0, buf, sizeof buf);
	CHECK_EQ_STR(buf, "");
}

CHECK_MAIN("test_device_nvme")
