/* The search files of a resumable network run (trim network --out DIR,
 * lib/neteval/resume.c): the input, its checksum made right (so that the
 * mutations reach the reader, not only the checksum test), is read back as
 * the result of the tiny network's first workload: header, stamp, proof,
 * index, mapping YAML, the re-check (trim eval's check, the cost bit for
 * bit, the index as the mapping's encoding). Seeds: real search files,
 * written by the harness itself when TRIM_FUZZ_WRITE_SEEDS names a
 * directory (test/fuzz/run.sh does). */
#include "fuzz.h"

#include "neteval/neteval_state.h"
#include "util/digest.h"

#define NET "test/data/neteval/tiny.yaml"
#define ARCH "test/data/neteval/tiny-arch.yaml"

static trim_network *net;
static trim_workloads *w;
static trim_arch *arch;
static trim_neteval *ne;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	FUZZ_REQUIRE(trim_network_load(&net, NET));
	FUZZ_REQUIRE(trim_workloads_create(&w, net, TRIM_MODE_TRAINING, 0, 0));
	FUZZ_REQUIRE(trim_arch_load(&arch, ARCH));
	const char *seeds = getenv("TRIM_FUZZ_WRITE_SEEDS");
	if (seeds && seeds[0]) { /* a real run's files: the seeds */
		trim_neteval *run = NULL;
		FUZZ_REQUIRE(trim_neteval_create(&run, net, w, arch, NULL));
		FUZZ_REQUIRE(trim_neteval_set_out_dir(run, seeds));
		FUZZ_REQUIRE(trim_neteval_run(run));
		trim_neteval_free(run);
	}
	FUZZ_REQUIRE(trim_neteval_create(&ne, net, w, arch, NULL));
	FUZZ_REQUIRE(trim_neteval_set_out_dir(ne, fuzz_dir()));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	/* the checksum line as lib/neteval/resume.c writes it: the SHA-256 of
	 * every byte before it */
	if (size > 74 && !strncmp(text + size - 74, "checksum ", 9) && text[size - 1] == '\n') {
		char sum[TRIM__DIGEST_HEX];
		trim__digest_bytes_hex(text, size - 74, sum);
		memcpy(text + size - 74 + 9, sum, 64);
	}
	char why[600];
	for (size_t i = 0; i < trim_workloads_intra_count(w) && i < 3; i++)
		trim__resume_parse(ne, i, text, size, "fuzz-input", (int)(i & 1), why, sizeof why);
	free(text);
	return 0;
}
