package cpuinfo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// recorded answers CPUID with a table of leaf and subleaf; anything else is
// all zeros, as CPUs answer for leaves they do not have.
type recorded map[[2]uint32][4]uint32

func (r recorded) cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32) {
	v := r[[2]uint32{leaf, subleaf}]
	return v[0], v[1], v[2], v[3]
}

// xeon167 is what the development VM's Xeon answers (lscpu: Intel Xeon,
// family 6 model 167, 48 KiB L1d, 2 MiB L2, a 480 MiB L3 shared by 2).
var xeon167 = recorded{
	{0x0, 0}: {0x00000024, 0x756e6547, 0x6c65746e, 0x49656e69},
	{0x1, 0}: {0x000a0671, 0x00020800, 0xfffa3203, 0x1f8bfbff},
	{0x4, 0}: {0x04000121, 0x02c0003f, 0x0000003f, 0x00000000},
	{0x4, 1}: {0x04000122, 0x03c0003f, 0x0000003f, 0x00000000},
	{0x4, 2}: {0x04000143, 0x03c0003f, 0x000007ff, 0x00000000},
	{0x4, 3}: {0x04004163, 0x03c0003f, 0x00077fff, 0x00000000},
}

// zen3 is a Ryzen 9 5950X as AMD documents its geometry: family 0x19 model
// 0x21; 32 KiB 8-way L1d, 512 KiB 8-way L2, 32 MiB 16-way L3, in leaf
// 0x8000001D (leaf 4 is reserved on AMD and answers zeros).
var zen3 = recorded{
	{0x0, 0}:        {0x00000010, 0x68747541, 0x444d4163, 0x69746e65},
	{0x1, 0}:        {0x00a20f10, 0, 0, 0},
	{0x80000000, 0}: {0x80000023, 0, 0, 0},
	{0x80000001, 0}: {0, 0, 1 << 22, 0},
	{0x8000001d, 0}: {0x00000121, 7<<22 | 63, 63, 0},
	{0x8000001d, 1}: {0x00000122, 7<<22 | 63, 63, 0},
	{0x8000001d, 2}: {0x00000143, 7<<22 | 63, 1023, 0},
	{0x8000001d, 3}: {0x0001c163, 15<<22 | 63, 32767, 0},
}

// zen5Guest is the KVM guest of an EPYC family 0x1a model 2 as it answered:
// zeros in 0x8000001D, the older leaves filled in (48 KiB L1d, 1 MiB L2,
// 1016 x 512 KiB of L3 in the package).
var zen5Guest = recorded{
	{0x0, 0}:        {0x0000000d, 0x68747541, 0x444d4163, 0x69746e65},
	{0x1, 0}:        {0x00b00f21, 0xf4fe0800, 0xfed83203, 0x178bfbff},
	{0x80000000, 0}: {0x80000021, 0x68747541, 0x444d4163, 0x69746e65},
	{0x80000001, 0}: {0x00b00f21, 0x40000000, 0x440001f1, 0x25d3fbff},
	{0x80000005, 0}: {0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140},
	{0x80000006, 0}: {0x40802040, 0x60804040, 0x04006140, 0x0fe09140},
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name     string
		cpuid    recorded
		want     CPU
		cachesOK bool
	}{
		{"Xeon family 6 model 167", xeon167,
			CPU{Vendor: Intel, Family: 6, Model: 167, Caches: Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20, Source: "cpuid"}}, true},
		{"Zen 3", zen3,
			CPU{Vendor: AMD, Family: 0x19, Model: 0x21, Caches: Caches{L1d: 32 << 10, L2: 512 << 10, L3: 32 << 20, Source: "cpuid"}}, true},
		{"Zen 5 guest hiding 0x8000001D", zen5Guest,
			CPU{Vendor: AMD, Family: 0x1a, Model: 2, Caches: Caches{L1d: 48 << 10, L2: 1 << 20, L3: 32 << 20, Source: "cpuid"}}, true},
		{"AMD without topology extensions", recorded{
			{0x0, 0}: zen3[[2]uint32{0, 0}], {0x1, 0}: zen3[[2]uint32{1, 0}], {0x80000000, 0}: {0x8000001f, 0, 0, 0}},
			CPU{Vendor: AMD, Family: 0x19, Model: 0x21}, false},
		{"hypervisor hiding leaf 4", recorded{{0x0, 0}: {0x1, 0x756e6547, 0x6c65746e, 0x49656e69}, {0x1, 0}: {0x000906ea, 0, 0, 0}},
			CPU{Vendor: Intel, Family: 6, Model: 158}, false},
		{"unknown vendor", recorded{{0x0, 0}: {0x1, 0x6f677948, 0x656e6975, 0x6e65476e}, {0x1, 0}: {0x00900f02, 0, 0, 0}},
			CPU{Family: 0x18, Model: 0}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := decode(c.cpuid.cpuid)
			require.Equal(t, c.want, got)
			require.Equal(t, c.cachesOK, ok)
		})
	}
}

func TestFamilyModel(t *testing.T) {
	for _, c := range []struct {
		eax           uint32
		family, model int
	}{
		{0x000a0671, 6, 167},          // the Xeon above: extended model 0xa
		{0x000806f8, 6, 143},          // Sapphire Rapids
		{0x00a20f10, 0x19, 33},        // Zen 3: family 0xf + 0xa
		{0x00a60f12, 0x19, 97},        // Zen 4
		{0x00000f41, 15, 4},           // Pentium 4: family 0xf + 0
		{0x00010673, 6, 0x17},         // Core 2: extended model 1
		{0x00000543, 5, 4},            // Pentium MMX: no extended fields
		{0x0fff0f00, 15 + 0xff, 0xf0}, // every extended bit
	} {
		f, m := familyModel(c.eax)
		require.Equal(t, [2]int{c.family, c.model}, [2]int{f, m}, "eax %#x", c.eax)
	}
}

// TestFromSysfs reads a copy of the development VM's sysfs cache
// directory, in which index* sorts index10 before index2.
func TestFromSysfs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ index, level, typ, size string }{
		{"index0", "1", "Data", "48K"}, {"index1", "1", "Instruction", "64K"},
		{"index2", "2", "Unified", "2048K"}, {"index10", "3", "Unified", "491520K"},
	} {
		d := filepath.Join(dir, c.index)
		require.NoError(t, os.Mkdir(d, 0o755))
		for f, v := range map[string]string{"level": c.level, "type": c.typ, "size": c.size + "\n"} {
			require.NoError(t, os.WriteFile(filepath.Join(d, f), []byte(v), 0o644))
		}
	}
	cs, ok := fromSysfs(dir)
	require.True(t, ok)
	require.Equal(t, Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20, Source: "sysfs"}, cs)
	_, ok = fromSysfs(filepath.Join(dir, "missing"))
	require.False(t, ok)
}

func TestSysfsSize(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		good bool
	}{{"48K", 48 << 10, true}, {"32M", 32 << 20, true}, {"512", 512, true}, {"", 0, false}, {"0K", 0, false}, {"xK", 0, false}} {
		n, ok := sysfsSize(c.s)
		require.Equal(t, c.good, ok, c.s)
		if ok {
			require.Equal(t, c.n, n, c.s)
		}
	}
}

func TestCachesText(t *testing.T) {
	cs := Caches{L1d: 48 << 10, L2: 2 << 20, L3: 480 << 20, Source: "cpuid"}
	require.Equal(t, "L1d 48 KiB, L2 2 MiB, L3 480 MiB (cpuid)", cs.String())
	require.Equal(t, 480<<20, cs.LastLevel())
	noL3 := Caches{L1d: 64 << 10, L2: 1 << 20, Source: "sysfs"}
	require.Equal(t, "L1d 64 KiB, L2 1 MiB (sysfs)", noL3.String())
	require.Equal(t, 1<<20, noL3.LastLevel())
	for n, want := range map[int]string{100: "100 bytes", 48 << 10: "48 KiB", 8688: "8.48 KiB", 3 << 19: "1.5 MiB", 1482912: "1.41 MiB",
		1048572: "1024 KiB", 2965824: "2.83 MiB", 47453136: "45.3 MiB", 300 << 20: "300 MiB", 1 << 30: "1 GiB"} {
		require.Equal(t, want, Bytes(n))
	}
}

// TestGet checks that the CPU this runs on has plausible caches, whatever
// their source.
func TestGet(t *testing.T) {
	cs := Get().Caches
	require.Greater(t, cs.L1d, 1<<10)
	require.Contains(t, []string{"cpuid", "sysfs", "defaults"}, cs.Source)
	require.GreaterOrEqual(t, cs.LastLevel(), cs.L1d)
}
