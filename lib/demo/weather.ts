import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const location = z.string().min(1).describe('City and country (e.g. "Lyon, FR"), postal code, or "lat,lon".');
const units = z.enum(["metric", "imperial"]).default("metric").describe("Units for temperature, wind and precipitation.");

export const WEATHER_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "weather_get_current",
    summary: "Get the current weather at a place: temperature, feels-like, conditions, wind, humidity and alerts.",
    description: "Returns the latest observed conditions for a location, with the local time of the observation and any active severe-weather alerts.",
    parameters: { location, units },
    tags: ["weather", "read-only"],
  }),
  defineDemoTool({
    name: "weather_get_forecast",
    summary: "Get an hourly or daily weather forecast for a place up to 14 days ahead, with precipitation chance.",
    description:
      "Returns forecast periods with temperature (high and low for daily), conditions, chance and amount of precipitation, and wind. Hourly forecasts reach 48 hours ahead, daily ones up to 14 days.",
    parameters: {
      location,
      units,
      granularity: z.enum(["hourly", "daily"]).default("daily").describe("Forecast resolution."),
      days: z.int().min(1).max(14).default(5).describe("Number of days to cover (hourly: at most 2)."),
    },
    tags: ["weather", "read-only"],
  }),
];
