// compose-config prints the resolved model of a compose file as JSON, exactly as
// `docker compose config --format json` does, and exits 1 with the same message when the file is
// invalid: both are compose-go's loader (schema validation, interpolation, normalisation), at the
// version docker compose v2.40 uses. deploy-check builds it when the docker CLI has no compose
// plugin, which keeps the check small on machines without Docker. COMPOSE_PROFILES activates
// profiles as it does for docker compose (`*`: all of them).
//
//	compose-config docker-compose.yml
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-config FILE...")
		os.Exit(2)
	}
	opts, err := cli.NewProjectOptions(os.Args[1:], cli.WithOsEnv, cli.WithDotEnv, cli.WithDefaultProfiles(), cli.WithName("plaza"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := project.MarshalJSON()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, _ = os.Stdout.Write(append(out, '\n'))
}
