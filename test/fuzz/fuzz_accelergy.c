/* Accelergy tables: the input is an ERT (written as DIR/ERT.yaml) loaded
 * with the example's ART, and then alone as a table directory; each table
 * that loads costs the shipped architectures. */
#define FUZZ_ENERGY_NO_MAIN
#include "fuzz_energy.c"

static char ert[512], art[512], table_dir[512];

static int init(void)
{
	const char *d = fuzz_dir();
	snprintf(table_dir, sizeof table_dir, "%s/table", d);
	snprintf(ert, sizeof ert, "%s/ERT.yaml", table_dir);
	snprintf(art, sizeof art, "%s/ART.yaml", d);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp energy_tables/accelergy-example/ART.yaml '%s'", table_dir, art);
	return system(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) { /* LLVMFuzzerInitialize (fuzz_energy.c) has loaded the architectures */
		if (init() != 0)
			abort();
		ready = 1;
	}
	fuzz_write(ert, data, size);
	trim_energy *t = NULL;
	if (trim_energy_load_accelergy(&t, ert, art) == 0) {
		fuzz_cost(t);
		trim_energy_free(t);
	}
	if (trim_energy_load(&t, table_dir) == 0) {
		fuzz_cost(t);
		trim_energy_free(t);
	}
	return 0;
}
