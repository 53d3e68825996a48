//go:build !purego

package elem

import "golang.org/x/sys/cpu"

// availableLevels lists what this CPU can run: the features in the kernels'
// "Requires:" lines (x/sys/cpu also checks that the OS saves the registers),
// less SSE2, CMOV and MMX+ (SFENCE), which every amd64 CPU has.
func availableLevels() []level {
	levels := []level{levelGeneric}
	if cpu.X86.HasAVX && cpu.X86.HasAVX2 {
		levels = append(levels, levelAVX2)
	}
	if cpu.X86.HasAVX && cpu.X86.HasAVX512F {
		levels = append(levels, levelAVX512)
	}
	return levels
}

// defaultLevel prefers AVX2. The AVX-512 kernels are generated and tested on
// every machine that has AVX-512, but none of the machines they were
// developed on had it, so no benchmark has shown them at least matching AVX2;
// until one does they run only when asked for (ELEM_IMPL=avx512).
func defaultLevel() level {
	if hasLevel(levelAVX2) {
		return levelAVX2
	}
	return levelGeneric
}

// hasStreaming reports whether the kernels here have streaming-store forms.
const hasStreaming = true
