"""The hex island: coordinates, the island graph, boards, generator, landmarks and SVG."""

from errors import IllegalAction, InvalidInput, NotFound, ProjectError
from hexmap.hexes import DIRECTIONS, Hex, distance, hex_range, neighbours, ring, rotate
from hexmap.island import DriveCosts, Island, Landmark, drive_costs, landmark_violations
from hexmap.island_json import island_from_json, island_to_json, parse_space
from hexmap.terrain import DRY_LAND, LANDMARK_KINDS, TERRAINS

__all__ = [
    "DIRECTIONS",
    "DRY_LAND",
    "DriveCosts",
    "LANDMARK_KINDS",
    "TERRAINS",
    "Hex",
    "IllegalAction",
    "InvalidInput",
    "Island",
    "Landmark",
    "NotFound",
    "ProjectError",
    "distance",
    "drive_costs",
    "hex_range",
    "island_from_json",
    "island_to_json",
    "landmark_violations",
    "neighbours",
    "parse_space",
    "ring",
    "rotate",
]
