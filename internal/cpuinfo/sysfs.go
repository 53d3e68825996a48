package cpuinfo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sysfsCaches is where Linux describes CPU 0's caches, one index*
// directory per cache.
const sysfsCaches = "/sys/devices/system/cpu/cpu0/cache"

// fromSysfs reads the data and unified caches under dir (sysfsCaches, or a
// copy in tests), and reports whether it found an L1d: elsewhere than on
// Linux, and on some arm64 machines, there is nothing there.
func fromSysfs(dir string) (Caches, bool) {
	cs := Caches{Source: "sysfs"}
	dirs, _ := filepath.Glob(filepath.Join(dir, "index*"))
	for _, d := range dirs {
		read := func(f string) string {
			b, _ := os.ReadFile(filepath.Join(d, f))
			return strings.TrimSpace(string(b))
		}
		level, err := strconv.Atoi(read("level"))
		size, ok := sysfsSize(read("size"))
		if read("type") == "Instruction" || err != nil || !ok {
			continue
		}
		cs.set(level, size)
	}
	return cs, cs.L1d > 0
}

// sysfsSize reads a sysfs cache size such as "48K", "2048K" or "32M".
func sysfsSize(s string) (int, bool) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		s, mult = s[:len(s)-1], 1<<10
	case strings.HasSuffix(s, "M"):
		s, mult = s[:len(s)-1], 1<<20
	}
	n, err := strconv.Atoi(s)
	return n * mult, err == nil && n > 0
}
