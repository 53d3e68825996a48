//go:build !purego

package elem

import "golang.org/x/sys/cpu"

// availableLevels lists what this CPU can run: NEON needs ASIMD, the
// Advanced SIMD instructions of every kernel in kernel_arm64.s.
func availableLevels() []level {
	levels := []level{levelGeneric}
	if cpu.ARM64.HasASIMD {
		levels = append(levels, levelNEON)
	}
	return levels
}

// defaultLevel prefers NEON, which every arm64 CPU that runs Go has.
func defaultLevel() level {
	if hasLevel(levelNEON) {
		return levelNEON
	}
	return levelGeneric
}

// hasStreaming reports whether the kernels here have streaming-store forms:
// the NEON kernels do not.
const hasStreaming = false
