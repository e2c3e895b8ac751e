"""Lanes and run control: ``info lanes``, stepping that stays on a lane,
lane watches, and what happens at a stop (faults, fatal signals, displaced
stepping kept off where it would corrupt a register)."""
