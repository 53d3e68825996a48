// Command elembench shows what elem does on this machine. The tool itself
// lives in a module of its own, tools/elembench, so that its dependencies
// (gonum/plot for the plots, gonum and vek as the peers of -reduce) never
// enter the library's build list; this command, in the library module,
// only runs it there with the same arguments:
//
//	go run ./cmd/elembench [flags]   # from the repository root; see tools/elembench for the flags
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

func main() {
	cmd := exec.Command("go", append([]string{"run", "."}, os.Args[1:]...)...)
	cmd.Dir = toolDir()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			os.Exit(exit.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "elembench:", err)
		os.Exit(2)
	}
}

// toolDir is the tool's module directory: beside this file's source in the
// repository, or, in a build without source paths (-trimpath), relative to
// the working directory (the repository root).
func toolDir() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		dir := filepath.Join(filepath.Dir(file), "..", "..", "tools", "elembench")
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
	}
	return filepath.Join("tools", "elembench")
}
