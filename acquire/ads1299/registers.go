package ads1299

import "fmt"

// SPI command opcodes used (SBAS499C, "SPI Command Definitions").
const (
	cmdReset  = 0x06 // reset the device
	cmdStart  = 0x08 // start or restart conversions
	cmdStop   = 0x0A // stop conversions
	cmdRDATAC = 0x10 // enable Read Data Continuous mode (power-up default)
	cmdSDATAC = 0x11 // stop Read Data Continuous mode
	cmdRREG   = 0x20 // RREG 001r rrrr, then 000n nnnn (n+1 registers)
	cmdWREG   = 0x40 // WREG 010r rrrr, then 000n nnnn (n+1 registers)
)

// commandNames names the single-byte opcodes for errors.
var commandNames = map[byte]string{
	cmdReset:  "RESET",
	cmdStart:  "START",
	cmdStop:   "STOP",
	cmdRDATAC: "RDATAC",
	cmdSDATAC: "SDATAC",
}

// Register addresses written or read (SBAS499C, "Register Map"); the
// status registers LOFF_STATP/N (0x12, 0x13) arrive in every frame instead.
const (
	regID         = 0x00 // read-only: REV_ID[7:5] 1 DEV_ID[3:2]=11 NU_CH[1:0]
	regCONFIG1    = 0x01 // 1 DAISY_EN CLK_EN 1 0 DR[2:0]; reset 0x96
	regCONFIG2    = 0x02 // 1 1 0 INT_CAL 0 CAL_AMP0 CAL_FREQ[1:0]; reset 0xC0
	regCONFIG3    = 0x03 // PD_REFBUF 1 1 BIAS_MEAS BIASREF_INT PD_BIAS BIAS_LOFF_SENS BIAS_STAT; reset 0x60
	regLOFF       = 0x04 // COMP_TH[2:0] 0 ILEAD_OFF[1:0] FLEAD_OFF[1:0]; reset 0x00
	regCH1SET     = 0x05 // PD GAIN[2:0] SRB2 MUX[2:0]; CHnSET = 0x04+n; reset 0x61
	regBIASSENSP  = 0x0D
	regBIASSENSN  = 0x0E
	regLOFFSENSP  = 0x0F
	regLOFFSENSN  = 0x10
	regLOFFFLIP   = 0x11
	regMISC1      = 0x15 // 0 0 SRB1 0 0 0 0 0
	regCONFIG4    = 0x17 // 0 0 0 0 SINGLE_SHOT 0 PD_LOFF_COMP 0
	numRegisters  = 0x18
	maxChannels   = 8
	statusBytes   = 3
	sampleBytes   = 3
	maxFrameBytes = statusBytes + maxChannels*sampleBytes // 27
)

// Register bits.
const (
	config1Reserved = 0x90 // bit 7 = 1, bits 4:3 = 10
	config2Reserved = 0xC0 // bits 7:5 = 110
	config2IntCal   = 0x10 // INT_CAL: test signals generated internally
	config2CalAmp   = 0x04 // CAL_AMP0: 2 × −(VREFP − VREFN)/2.4 mV
	config3Reserved = 0x60 // bits 6:5 = 11
	config3RefBuf   = 0x80 // PD_REFBUF: internal reference buffer on
	config3BiasMeas = 0x10 // BIAS_MEAS: BIASIN routed to MUX = 010 channels
	config3BiasRef  = 0x08 // BIASREF_INT: bias reference (AVDD+AVSS)/2 internal
	config3PDBias   = 0x04 // PD_BIAS: bias buffer powered up
	config3BiasLoff = 0x02 // BIAS_LOFF_SENS: bias sense for lead-off enabled
	config3BiasStat = 0x01 // BIAS_STAT: read-only bias lead-off status
	chPowerDown     = 0x80 // CHnSET PDn
	chSRB2          = 0x08 // CHnSET SRB2: inverting input to SRB2
	misc1SRB1       = 0x20 // MISC1 SRB1: SRB1 to all inverting inputs
	config4LoffComp = 0x02 // CONFIG4 PD_LOFF_COMP: lead-off comparators on
	statusSync      = 0xC  // leading nibble of the status word: 1100
)

var registerNames = [numRegisters]string{
	"ID", "CONFIG1", "CONFIG2", "CONFIG3", "LOFF",
	"CH1SET", "CH2SET", "CH3SET", "CH4SET", "CH5SET", "CH6SET", "CH7SET", "CH8SET",
	"BIAS_SENSP", "BIAS_SENSN", "LOFF_SENSP", "LOFF_SENSN", "LOFF_FLIP",
	"LOFF_STATP", "LOFF_STATN", "GPIO", "MISC1", "MISC2", "CONFIG4",
}

// registerName returns the datasheet name of register addr, e.g. "CONFIG3 (0x03)".
func registerName(addr uint8) string {
	if int(addr) < len(registerNames) {
		return fmt.Sprintf("%s (0x%02X)", registerNames[addr], addr)
	}
	return fmt.Sprintf("register 0x%02X", addr)
}

// variant describes one member of the ADS1299 family, told apart by ID[4:0].
type variant struct {
	name     string
	channels int
}

// variants maps ID[4:0] (DEV_ID = 11 and NU_CH) to the family member.
var variants = map[uint8]variant{
	0x1C: {"ADS1299-4", 4},
	0x1D: {"ADS1299-6", 6},
	0x1E: {"ADS1299", 8},
}
