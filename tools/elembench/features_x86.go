//go:build 386 || amd64

package main

import "golang.org/x/sys/cpu"

func cpuFeatures() []string {
	var fs []string
	for _, f := range []struct {
		name string
		has  bool
	}{{"SSE4.1", cpu.X86.HasSSE41}, {"AVX", cpu.X86.HasAVX}, {"AVX2", cpu.X86.HasAVX2}, {"FMA", cpu.X86.HasFMA},
		{"AVX512F", cpu.X86.HasAVX512F}, {"AVX512DQ", cpu.X86.HasAVX512DQ}, {"AVX512BW", cpu.X86.HasAVX512BW}, {"AVX512VL", cpu.X86.HasAVX512VL}} {
		if f.has {
			fs = append(fs, f.name)
		} else {
			fs = append(fs, "-"+f.name)
		}
	}
	return fs
}
