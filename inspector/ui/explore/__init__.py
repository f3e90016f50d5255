"""Exploring a live server: the Explore area and its Tools, Prompts, Resources and Utilities panels."""
