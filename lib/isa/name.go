package isa

import "fmt"

// ParseName reads an instruction name as portlab's data sets and campaigns
// spell them: an iwho x86-64 scheme ("add RW:GPR:64, R:GPR:64"), a PMEvo
// name (x86-64 or AArch64, "ADD_((REG:RW:G:64)),_((REG:R:G:64))") or an
// AArch64 scheme, tried in that order. The error says why each reading
// failed.
func ParseName(name string) (Form, error) {
	f, err := ParseScheme(name)
	if err == nil {
		return f, nil
	}
	f, err2 := ParsePMEvo(name)
	if err2 == nil {
		return f, nil
	}
	f, err3 := ParseSchemeISA(AArch64, name)
	if err3 == nil {
		return f, nil
	}
	return Form{}, fmt.Errorf("%q is neither an iwho x86 scheme (%v) nor a PMEvo name (%v) nor an AArch64 scheme (%v)", name, err, err2, err3)
}
