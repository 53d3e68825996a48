//go:build amd64 && !purego

package cpuinfo

// fromCPUID reads the CPU with the CPUID instruction (cpuid_amd64.s), and
// reports whether that gave the caches.
func fromCPUID() (CPU, bool) { return decode(cpuid) }
