package cpuinfo

// cpuidFunc runs CPUID: the instruction on amd64, recorded answers in tests.
type cpuidFunc func(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// The CPUID leaves decode reads.
const (
	leafVendor   = 0x0        // highest basic leaf; vendor string in EBX, EDX, ECX
	leafVersion  = 0x1        // family, model, stepping in EAX
	leafCaches   = 0x4        // Intel's deterministic cache parameters, one subleaf per cache
	leafExtMax   = 0x80000000 // highest extended leaf
	leafExtFeats = 0x80000001 // AMD: ECX bit 22 is TopologyExtensions
	leafAMDCache = 0x8000001D // AMD's cache topology, in leaf 4's layout
	leafAMDL1    = 0x80000005 // AMD's older cache leaves: L1d size in KiB in ECX[31:24]
	leafAMDL2L3  = 0x80000006 // L2 in KiB in ECX[31:16], L3 in 512 KiB units in EDX[31:18]
)

// decode reads the vendor, family, model and caches from cpuid, and
// reports whether it found the caches (leaf 4 on Intel, 0x8000001D on AMD,
// else AMD's older 0x80000005 and 0x80000006; hypervisors may hide any).
func decode(cpuid cpuidFunc) (c CPU, cachesOK bool) {
	maxLeaf, ebx, ecx, edx := cpuid(leafVendor, 0)
	c.Vendor = vendorOf(ebx, edx, ecx)
	if maxLeaf >= leafVersion {
		eax, _, _, _ := cpuid(leafVersion, 0)
		c.Family, c.Model = familyModel(eax)
	}
	cacheLeaf, extMax := uint32(0), uint32(0)
	switch {
	case c.Vendor == AMD:
		extMax, _, _, _ = cpuid(leafExtMax, 0)
		if extMax >= leafAMDCache {
			if _, _, feats, _ := cpuid(leafExtFeats, 0); feats&(1<<22) != 0 {
				cacheLeaf = leafAMDCache
			}
		}
	case maxLeaf >= leafCaches:
		cacheLeaf = leafCaches
	}
	if cacheLeaf != 0 {
		c.Caches = cachesOf(cpuid, cacheLeaf)
	}
	// The KVM guests of the Zen 5 sessions answer zeros in 0x8000001D but
	// give the sizes in the older leaves.
	if c.Caches.L1d == 0 && c.Vendor == AMD && extMax >= leafAMDL2L3 {
		c.Caches = amdLegacyCaches(cpuid)
	}
	return c, c.Caches.L1d > 0
}

// zenL3 is the L3 of one core complex of Zen 2 to Zen 5 parts without
// stacked cache.
const zenL3 = 32 << 20

// amdLegacyCaches reads AMD's leaves 0x80000005 and 0x80000006. Their L3
// is the whole package's (508 MiB on the Zen 5 guest), of which one core
// fills only its core complex's: at most zenL3.
func amdLegacyCaches(cpuid cpuidFunc) Caches {
	_, _, l1, _ := cpuid(leafAMDL1, 0)
	_, _, l2, l3 := cpuid(leafAMDL2L3, 0)
	cs := Caches{Source: "cpuid"}
	cs.set(1, int(l1>>24)<<10)
	cs.set(2, int(l2>>16)<<10)
	cs.set(3, min(int(l3>>18)<<19, zenL3))
	if cs.L1d == 0 {
		return Caches{}
	}
	return cs
}

// vendorOf reads the vendor string of leaf 0 (EBX, EDX, ECX in that order).
func vendorOf(ebx, edx, ecx uint32) Vendor {
	var s [12]byte
	for i, r := range [3]uint32{ebx, edx, ecx} {
		s[4*i], s[4*i+1], s[4*i+2], s[4*i+3] = byte(r), byte(r>>8), byte(r>>16), byte(r>>24)
	}
	switch string(s[:]) {
	case "GenuineIntel":
		return Intel
	case "AuthenticAMD":
		return AMD
	}
	return Unknown
}

// familyModel decodes leaf 1's EAX as both vendors document it: the
// extended family is added when the base family is 15, and the extended
// model is the high nibble when the base family is 6 or 15.
func familyModel(eax uint32) (family, model int) {
	base := int(eax>>8) & 0xf
	family, model = base, int(eax>>4)&0xf
	if base == 0xf {
		family += int(eax>>20) & 0xff
	}
	if base == 0x6 || base == 0xf {
		model |= (int(eax>>16) & 0xf) << 4
	}
	return family, model
}

// cachesOf walks the subleaves of a cache leaf in leaf 4's layout until
// the null type: EAX has the type (1 data, 2 instruction, 3 unified) and
// level, EBX the ways, partitions and line size, ECX the sets, each minus
// one.
func cachesOf(cpuid cpuidFunc, leaf uint32) Caches {
	cs := Caches{Source: "cpuid"}
	for sub := uint32(0); sub < 16; sub++ {
		eax, ebx, ecx, _ := cpuid(leaf, sub)
		typ, level := eax&0x1f, (eax>>5)&0x7
		if typ == 0 {
			break
		}
		if typ == 2 {
			continue
		}
		cs.set(int(level), int((ebx>>22)&0x3ff+1)*int((ebx>>12)&0x3ff+1)*int(ebx&0xfff+1)*int(ecx+1))
	}
	return cs
}
