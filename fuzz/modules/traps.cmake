# The traps of the sources as compile-time switches of fuzz/modules/c11_port.c, one row
# each: SWITCH=FLAG=OPERATION (NEFFBAR_TRAP_<SWITCH>; the flag of core/neffbar/module/
# facts.h that conform and the differential must name; the one operation it changes).
# fuzz/modules/CMakeLists.txt builds a module of each; fuzz/CMakeLists.txt links them
# all into the `module` fuzz target.
set(NEFFBAR_TRAPS
    MIRRORED_0x124=TotalDescNNotLogged=decode_log
    TWO_BASES=OneBaseTwoViews=decode_log
    GATE_AS_BOOL=GatePrintedAsPointer=decode_log
    GATE_WHOLE_BYTE=ReservedAfterGate=decode_log
    FIELD1_NOP=Field1IsEntryExit=search
    TYPE_AS_SEMA_ID=TypeIdsAreNotSemaIds=search
    DEC_BY_VALUE=WaitGeAndDecByDec=sema_apply
    SEMA_WRAP=SemaSigned32=sema_apply)
