#include <stdio.h>

#include "cli/cli.h"

// trim-cli: version: print the library version
int trim_cli_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("libtrim %s\n", trim_version_string());
	return 0;
}
