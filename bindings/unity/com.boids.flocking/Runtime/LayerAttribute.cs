// Marks an int field as a layer: the inspector shows Unity's layer dropdown for it
// (Editor/LayerDrawer.cs).
using UnityEngine;

namespace BoidsFlocking.UnityIntegration
{
    /// <summary>An int field holding a layer (0..31), shown as the layer dropdown.</summary>
    public sealed class LayerAttribute : PropertyAttribute
    {
    }
}
