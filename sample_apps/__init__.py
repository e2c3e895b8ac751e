"""The simulated device runtime, the sample programs and their build."""
