//go:build !amd64 || purego

package cpuinfo

// fromCPUID has nothing to read without amd64 assembly: the caches come
// from sysfs, and the vendor, family and model stay unknown.
func fromCPUID() (CPU, bool) { return CPU{}, false }
