//go:build arm64

package main

import "golang.org/x/sys/cpu"

func cpuFeatures() []string {
	if cpu.ARM64.HasASIMD {
		return []string{"ASIMD"}
	}
	return []string{"-ASIMD"}
}
