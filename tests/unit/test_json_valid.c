/* json_valid: what it accepts and refuses, and json_raw embedding. */
#include "check.h"

#include "common/json.h"

TEST(accepts_valid_json)
{
	static const char *const ok[] = {
		"0", "-0", "1.5e-3", "-12E+7", "true", "false", "null", "\"\"",
		"\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\"", "[]", "{}",
		" { \"a\" : [1, 2, {\"b\": null}], \"c\": \"d\" } ",
		"[[[[[[[[[[]]]]]]]]]]", "\"caf\xc3\xa9\"",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (!json_valid(ok[i]))
			CHECK_FAIL("refused valid: %s", ok[i]);
}

TEST(refuses_invalid_json)
{
	static const char *const bad[] = {
		"", " ", "01", "1.", ".5", "1e", "+1", "-", "tru", "nul", "True",
		"\"open", "\"bad \\x escape\"", "\"\\u12G4\"", "\"tab\there\"",
		"[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{a:1}", "{\"a\":1,}",
		"[1] 2", "{} {}", "[", "]", "{\"a\":1", "'single'", "NaN",
		"Infinity",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (json_valid(bad[i]))
			CHECK_FAIL("accepted invalid: %s", bad[i]);
	CHECK(!json_valid(NULL));
	/* Nesting past jansson's 2048 is refused rather than overflowing
	   the stack; 1000 deep is JSON like any other. */
	static char deep[6001];
	memset(deep, '[', 3000);
	memset(deep + 3000, ']', 3000);
	deep[6000] = '\0';
	CHECK(!json_valid(deep));
	deep[1000] = '\0';
	memset(deep + 500, ']', 500);
	CHECK(json_valid(deep));
	/* not UTF-8: embedding it would make our output invalid JSON */
	CHECK(!json_valid("\"\xff\xfe\""));
}

TEST(raw_values_are_embedded_as_they_are)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w;
	json_init(&w, f, false);
	json_object_begin(&w, NULL);
	json_raw(&w, "params", "{\"bs\":4096}");
	json_u64(&w, "n", 1);
	json_object_end(&w);
	json_finish(&w);
	fclose(f);
	CHECK_EQ_STR(buf, "{\"params\":{\"bs\":4096},\"n\":1}\n");
	CHECK(json_valid(buf));
	free(buf);
}

CHECK_MAIN("test_json_valid")
